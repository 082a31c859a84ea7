import { describe, expect, it } from 'vitest';
import { createRefusalNotices } from './refusal-notices';

const gateway = { agentName: 'Claude Code', gateway: '127.0.0.1:4000', pointedBy: 'ANTHROPIC_BASE_URL', vendorHosts: ['api.anthropic.com', '*.anthropic.com', 'claude.ai'] };

describe('what the activity says about a refused connection', () => {
  it('warns once per host and port, naming the entry to add', () => {
    const notice = createRefusalNotices();
    expect(notice('api.evil.example', 443)).toEqual({ level: 'warn', text: 'Network: refused api.evil.example:443 (not in the agent\'s allowlist): add "api.evil.example" to the policy\'s network to allow it.' });
    expect(notice('api.evil.example', 443)).toBeUndefined();
    expect(notice('127.0.0.1', 5000)?.text).toContain('add "127.0.0.1:5000"');
  });

  it('says once, as information and without advice, that the agent\'s vendor is kept out while it works through a gateway', () => {
    const notice = createRefusalNotices(gateway);
    const first = notice('api.anthropic.com', 443);
    expect(first).toEqual({ level: 'info', text: 'Network: Claude Code also tries api.anthropic.com:443, its vendor\'s own service; the sandbox keeps it out, as the policy sends it to 127.0.0.1:4000 (ANTHROPIC_BASE_URL) instead.' });
    expect(first?.text).not.toContain('add');
    expect(notice('statsig.anthropic.com', 443)).toBeUndefined();
    expect(notice('api.anthropic.com', 443)).toBeUndefined();
  });

  it('still warns about a host that is not its vendor\'s, gateway or not', () => {
    expect(createRefusalNotices(gateway)('registry.npmjs.org', 443)?.level).toBe('warn');
  });
});
