import { describe, expect, it } from 'vitest';
import { appOriginFor, boardUrl, isSameOrigin } from './app-origin';

describe('the app origin', () => {
  const origin = appOriginFor(1337);

  it('is the core on 127.0.0.1 at its port', () => {
    expect(origin).toBe('http://127.0.0.1:1337');
  });

  it('puts the token in the fragment of the board address, never in the query', () => {
    const url = new URL(boardUrl(origin, 'a+b/c=d'));
    expect(url.pathname).toBe('/ui/');
    expect(url.search).toBe('');
    expect(new URLSearchParams(url.hash.slice(1)).get('token')).toBe('a+b/c=d');
  });

  it('accepts any page of the same origin', () => {
    expect(isSameOrigin('http://127.0.0.1:1337/ui/#token=x', origin)).toBe(true);
    expect(isSameOrigin('http://127.0.0.1:1337/api/tasks', origin)).toBe(true);
  });

  it.each([
    ['another port', 'http://127.0.0.1:1338/ui/'],
    ['a longer port', 'http://127.0.0.1:13370/ui/'],
    ['https', 'https://127.0.0.1:1337/ui/'],
    ['localhost by name', 'http://localhost:1337/ui/'],
    ['a host that starts like ours', 'http://127.0.0.1.evil.test:1337/'],
    ['credentials in front of another host', 'http://127.0.0.1:1337@evil.test/'],
    ['credentials in front of our host', 'http://user@127.0.0.1:1337/ui/'],
    ['a file page', 'file:///tmp/index.html'],
    ['an opaque origin', 'data:text/html,hi'],
    ['no address at all', undefined],
    ['garbage', 'not a url'],
  ])('refuses %s', (_name, url) => {
    expect(isSameOrigin(url, origin)).toBe(false);
  });
});
