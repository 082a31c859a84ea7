import { describe, expect, it } from 'vitest';
import { createAttentionPrefs, readPrefs } from './attention-prefs';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => { items.set(key, value); } };
}

describe('attention preferences', () => {
  it('start with notifications and sound off', () => {
    expect(readPrefs(memoryStorage())).toEqual({ notify: false, sound: false });
    expect(readPrefs(undefined)).toEqual({ notify: false, sound: false });
  });

  it('are remembered by the browser', () => {
    const storage = memoryStorage();
    createAttentionPrefs(storage).getState().set({ sound: true });
    expect(createAttentionPrefs(storage).getState()).toMatchObject({ notify: false, sound: true });
  });

  it('count anything unreadable as the defaults', () => {
    expect(readPrefs(memoryStorage({ 'assignment-desk.attention': '{not json' }))).toEqual({ notify: false, sound: false });
  });
});
