import { describe, expect, it } from 'vitest';
import { readConnection, withFragmentParam } from './connection';

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return { getItem: (key: string) => values.get(key) ?? null, setItem: (key: string, value: string) => void values.set(key, value), values };
}

describe('readConnection', () => {
  it('takes the token from the fragment and the endpoint from the page origin', () => {
    const storage = memoryStorage();
    expect(readConnection({ hash: '#token=abc', origin: 'http://127.0.0.1:5000' }, storage))
      .toEqual({ endpoint: 'http://127.0.0.1:5000', token: 'abc' });
  });

  it('lets the fragment name another endpoint, as the desktop window does', () => {
    const connection = readConnection({ hash: '#endpoint=http%3A%2F%2F127.0.0.1%3A9&token=t', origin: 'file://' }, memoryStorage());
    expect(connection).toEqual({ endpoint: 'http://127.0.0.1:9', token: 't' });
  });

  it('falls back to the token this tab remembered', () => {
    const storage = memoryStorage({ 'assignment-desk.token': 'kept' });
    expect(readConnection({ hash: '#task=t1', origin: 'http://localhost:1337' }, storage)?.token).toBe('kept');
  });

  it('asks for a token when none is known', () => {
    expect(readConnection({ hash: '', origin: 'http://localhost:1337' }, memoryStorage())).toBeUndefined();
  });
});

describe('withFragmentParam', () => {
  it('sets the open task and keeps the token', () => {
    expect(withFragmentParam('#token=abc', 'task', 't 1')).toBe('#token=abc&task=t+1');
  });

  it('removes a parameter', () => {
    expect(withFragmentParam('#token=abc&task=t1', 'task', undefined)).toBe('#token=abc');
  });
});
