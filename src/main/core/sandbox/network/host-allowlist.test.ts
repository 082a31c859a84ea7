// The allowlist matcher: which host:port a sandboxed agent may reach through the egress proxy.
import { describe, expect, it } from 'vitest';
import { compileAllowlist, isAllowed, normalizeHost, parseAllowlistEntry } from './host-allowlist';

function allows(entries: string[], host: string, port: number): boolean {
  const { rules, refused } = compileAllowlist(entries);
  expect(refused).toEqual([]);
  return isAllowed(rules, host, port);
}

describe('exact hosts', () => {
  it('allows the named host on 443 and 80 when the entry names no port', () => {
    expect(allows(['api.anthropic.com'], 'api.anthropic.com', 443)).toBe(true);
    expect(allows(['api.anthropic.com'], 'api.anthropic.com', 80)).toBe(true);
  });

  it('refuses other ports when the entry names no port', () => {
    expect(allows(['api.anthropic.com'], 'api.anthropic.com', 22)).toBe(false);
    expect(allows(['api.anthropic.com'], 'api.anthropic.com', 8443)).toBe(false);
  });

  it('refuses subdomains and look-alikes of an exact host', () => {
    expect(allows(['anthropic.com'], 'api.anthropic.com', 443)).toBe(false);
    expect(allows(['anthropic.com'], 'evilanthropic.com', 443)).toBe(false);
    expect(allows(['anthropic.com'], 'anthropic.com.evil.example', 443)).toBe(false);
  });

  it('ignores case and one trailing dot on either side', () => {
    expect(allows(['API.Anthropic.COM.'], 'api.anthropic.com', 443)).toBe(true);
    expect(allows(['api.anthropic.com'], 'API.ANTHROPIC.COM.', 443)).toBe(true);
  });
});

describe('wildcards', () => {
  it('allows any subdomain, however deep', () => {
    expect(allows(['*.googleapis.com'], 'generativelanguage.googleapis.com', 443)).toBe(true);
    expect(allows(['*.googleapis.com'], 'a.b.googleapis.com', 443)).toBe(true);
  });

  it('does not allow the apex unless it is listed too', () => {
    expect(allows(['*.googleapis.com'], 'googleapis.com', 443)).toBe(false);
    expect(allows(['*.googleapis.com', 'googleapis.com'], 'googleapis.com', 443)).toBe(true);
  });

  it('does not match a host that merely ends with the same letters', () => {
    expect(allows(['*.googleapis.com'], 'evilgoogleapis.com', 443)).toBe(false);
  });
});

describe('ports', () => {
  it('allows only the named port when an entry names one', () => {
    expect(allows(['localhost:8080'], 'localhost', 8080)).toBe(true);
    expect(allows(['localhost:8080'], 'localhost', 443)).toBe(false);
    expect(allows(['*.example.com:8443'], 'a.example.com', 8443)).toBe(true);
  });

  it('refuses ports outside 1-65535', () => {
    expect(allows(['example.com'], 'example.com', 0)).toBe(false);
    expect(parseAllowlistEntry('example.com:0').ok).toBe(false);
    expect(parseAllowlistEntry('example.com:65536').ok).toBe(false);
    expect(parseAllowlistEntry('example.com:+80').ok).toBe(false);
  });
});

describe('IP literals', () => {
  it('allows an IP only when it is listed literally', () => {
    expect(allows(['127.0.0.1:9000'], '127.0.0.1', 9000)).toBe(true);
    expect(allows(['localhost:9000'], '127.0.0.1', 9000)).toBe(false);
    expect(allows(['127.0.0.1:9000'], 'localhost', 9000)).toBe(false);
  });

  it('sees through other spellings of an IPv4 address', () => {
    expect(allows(['127.0.0.1:9000'], '127.1', 9000)).toBe(true);
    expect(allows(['127.0.0.1:9000'], '2130706433', 9000)).toBe(true);
    expect(normalizeHost('0x7f.0.0.1')).toBe('127.0.0.1');
  });

  it('handles IPv6 with and without brackets, in any spelling', () => {
    expect(allows(['[::1]:8443'], '::1', 8443)).toBe(true);
    expect(allows(['[::1]:8443'], '[0:0:0:0:0:0:0:1]', 8443)).toBe(true);
    expect(allows(['[2001:db8::1]'], '2001:DB8::1', 443)).toBe(true);
  });

  it('never lets a wildcard cover an IP', () => {
    expect(parseAllowlistEntry('*.0.0.1').ok).toBe(false);
    expect(allows(['*.example.com'], '10.0.0.1', 443)).toBe(false);
  });
});

describe('ambiguous entries and hosts are refused', () => {
  it.each([
    ['', 'empty'],
    [' api.anthropic.com', 'contains whitespace'],
    ['api.anthropic.com\n', 'contains whitespace'],
    ['user@api.anthropic.com', 'contains userinfo (@)'],
    ['https://api.anthropic.com', 'a host is expected, not a URL'],
    ['api.anthropic.com/v1', 'a host is expected, not a URL'],
    ['::1', 'not host or host:port (bracket IPv6 literals, ports are 1-65535)'],
    ['*', 'not a valid host name or IP literal'],
    ['*.com', 'a wildcard needs at least two labels after it'],
    ['api.*.com', 'not a valid host name or IP literal'],
    ['a..b', 'not a valid host name or IP literal'],
    ['example.com..', 'not a valid host name or IP literal'],
    ['[::1%eth0]', 'not a valid host name or IP literal'],
    ['bücher.example', 'not a valid host name or IP literal'],
    ['1.2.3.256', 'not a valid host name or IP literal'],
  ])('refuses the entry %j', (entry, reason) => {
    expect(parseAllowlistEntry(entry)).toEqual({ ok: false, entry, reason });
  });

  it('returns every refused entry with its reason and keeps the rest', () => {
    const { rules, refused } = compileAllowlist(['api.anthropic.com', 'a@b', '']);
    expect(rules.map((rule) => rule.host)).toEqual(['api.anthropic.com']);
    expect(refused.map((r) => r.entry)).toEqual(['a@b', '']);
  });

  it('refuses a target host that is itself ambiguous', () => {
    expect(allows(['example.com'], 'user@example.com', 443)).toBe(false);
    expect(allows(['example.com'], 'example.com ', 443)).toBe(false);
    expect(allows(['example.com'], '', 443)).toBe(false);
    expect(allows(['*.example.com'], '*.example.com', 443)).toBe(false);
  });
});
