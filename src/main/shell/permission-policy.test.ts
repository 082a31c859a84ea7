import { describe, expect, it } from 'vitest';
import { permissionDecision } from './permission-policy';

const origin = 'http://127.0.0.1:1337';

describe('web permissions', () => {
  it.each(['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal', 'hid', 'serial', 'usb', 'fullscreen', 'display-capture', 'unknown'])('refuses %s to the app itself', (permission) => {
    expect(permissionDecision(permission, `${origin}/ui/`, origin)).toBe(false);
  });

  it('lets the app\'s own page write to the clipboard (its copy buttons)', () => {
    expect(permissionDecision('clipboard-sanitized-write', `${origin}/ui/`, origin)).toBe(true);
  });

  it('refuses even the clipboard to any other origin', () => {
    expect(permissionDecision('clipboard-sanitized-write', 'https://example.com/', origin)).toBe(false);
    expect(permissionDecision('clipboard-sanitized-write', undefined, origin)).toBe(false);
  });
});
