import { describe, expect, it } from 'vitest';
import { boardContentSecurityPolicy, withContentSecurityPolicy } from './content-security-policy';

const directives = (policy: string) => new Map(policy.split(';').map((part) => {
  const [name, ...values] = part.trim().split(/\s+/);
  return [name, values] as const;
}));

describe('the board\'s Content-Security-Policy', () => {
  const policy = directives(boardContentSecurityPolicy('http://127.0.0.1:1337'));

  it('runs scripts from the desk only: no inline scripts, no eval', () => {
    expect(policy.get('script-src')).toEqual(["'self'"]);
  });

  it('connects to this desk only, over HTTP and its WebSocket', () => {
    expect(policy.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:1337']);
  });

  it('allows no plugins, no <base>, no form posts and no framing', () => {
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('is added beside a policy the server sent, so it can only narrow it', () => {
    const headers = withContentSecurityPolicy({ 'content-security-policy': ["default-src 'self'"], 'Content-Type': ['text/html'] }, "script-src 'self'");
    expect(headers['Content-Security-Policy']).toEqual(["default-src 'self'", "script-src 'self'"]);
    expect(headers['Content-Type']).toEqual(['text/html']);
    expect(Object.keys(headers).filter((name) => name.toLowerCase() === 'content-security-policy')).toHaveLength(1);
  });

  it('is set when the server sent none', () => {
    expect(withContentSecurityPolicy(undefined, "default-src 'self'")).toEqual({ 'Content-Security-Policy': ["default-src 'self'"] });
  });
});
