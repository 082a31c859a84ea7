import { describe, expect, it } from 'vitest';
import { backoffMs, eventsUrl } from './events-socket';

describe('events socket', () => {
  it('resumes after the last seq the board has seen', () => {
    expect(eventsUrl('http://127.0.0.1:1337', 42)).toBe('ws://127.0.0.1:1337/api/events?after=42');
    expect(eventsUrl('https://desk.localhost', 0)).toBe('wss://desk.localhost/api/events?after=0');
  });

  it('backs off from half a second up to fifteen', () => {
    const middle = () => 0.5;
    expect([backoffMs(0, middle), backoffMs(3, middle), backoffMs(20, middle)]).toEqual([500, 4000, 15000]);
  });
});
