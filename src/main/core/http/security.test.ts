import { describe, expect, it } from 'vitest';
import { hasValidBearer, isAllowedHost, isAllowedOrigin, preflightHeaders } from './security';

describe('isAllowedHost', () => {
  it.each(['localhost', 'localhost:1337', '127.0.0.1:9', '[::1]:1337', '[::1]', 'agent-assignment-server.localhost:3000', 'LOCALHOST'])('allows loopback name %s', (host) => {
    expect(isAllowedHost(host, [])).toBe(true);
  });

  it.each(['evil.com', 'evil.com:1337', '127.0.0.2', 'localhost.evil.com', '10.0.0.1:80', '', 'local host', 'localhost:1337:1'])('refuses %s', (host) => {
    expect(isAllowedHost(host, [])).toBe(false);
  });

  it('refuses a request without Host', () => {
    expect(isAllowedHost(undefined, [])).toBe(false);
  });

  it('allows a configured name with any port', () => {
    expect(isAllowedHost('desk.lan:8080', ['desk.lan'])).toBe(true);
  });
});

describe('hasValidBearer', () => {
  it('accepts the right token', () => {
    expect(hasValidBearer('Bearer s3cret', 's3cret')).toBe(true);
    expect(hasValidBearer('bearer s3cret', 's3cret')).toBe(true);
    expect(hasValidBearer('Bearer gefährlich', 'gefährlich')).toBe(true);
  });

  it.each([undefined, '', 'Bearer', 'Bearer wrong', 'Bearer s3creT', 'Bearer s3cre', 'Bearer s3crets', 'Bearer s3crét', 'Basic s3cret', 'Bearer s3cret extra', 's3cret'])('refuses %s', (header) => {
    expect(hasValidBearer(header, 's3cret')).toBe(false);
  });
});

describe('isAllowedOrigin', () => {
  it('allows configured origins, ignoring case and a trailing slash', () => {
    expect(isAllowedOrigin('https://Prompt-Pad.danmercer.net/', 'localhost:1', ['https://prompt-pad.danmercer.net'])).toBe(true);
  });

  it('allows our own pages', () => {
    expect(isAllowedOrigin('http://127.0.0.1:1337', '127.0.0.1:1337', [])).toBe(true);
  });

  it('refuses other origins', () => {
    expect(isAllowedOrigin('https://evil.example', '127.0.0.1:1337', ['https://prompt-pad.danmercer.net'])).toBe(false);
    expect(isAllowedOrigin('http://127.0.0.1:9999', '127.0.0.1:1337', [])).toBe(false);
  });

  it('answers preflights with the private-network header', () => {
    expect(preflightHeaders('https://a.example')).toMatchObject({ 'Access-Control-Allow-Origin': 'https://a.example', 'Access-Control-Allow-Private-Network': 'true' });
  });
});
