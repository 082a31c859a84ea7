import { describe, expect, it } from 'vitest';
import { adHocAgentSpec } from './ad-hoc-agent';
import { KNOWN_AGENTS } from './known-agents';

describe('adHocAgentSpec', () => {
  it('makes the command an agent with id "ad-hoc" whose dialect is found at start', () => {
    expect(adHocAgentSpec({ words: ['my-agent', '--stdio'], cwd: '/home/me', known: KNOWN_AGENTS })).toEqual({
      id: 'ad-hoc', name: 'Ad-hoc agent (my-agent)', command: 'my-agent', args: ['--stdio'], dialect: 'auto', envAllowlist: [], env: {},
    });
  });

  it('keeps the dialect it is told', () => {
    expect(adHocAgentSpec({ words: ['k'], dialect: 'kandev', cwd: '/', known: [] }).dialect).toBe('kandev');
  });

  it('takes a relative program path from where the person typed it', () => {
    expect(adHocAgentSpec({ words: ['./bin/agent'], cwd: '/home/me/project', known: [] }).command).toBe('/home/me/project/bin/agent');
  });

  it('gives a known agent\'s program the keys that agent needs', () => {
    const gemini = adHocAgentSpec({ words: ['gemini', '--acp', '--model', 'pro'], cwd: '/', known: KNOWN_AGENTS });
    expect(gemini).toMatchObject({ name: 'Gemini CLI (ad hoc)', args: ['--acp', '--model', 'pro'], envAllowlist: expect.arrayContaining(['GEMINI_API_KEY']) });
  });

  it('knows a known agent behind a wrapper', () => {
    const wrapped = adHocAgentSpec({ words: ['env', 'HOME=/tmp/x', 'gemini', '--acp'], cwd: '/', known: KNOWN_AGENTS });
    expect(wrapped).toMatchObject({ name: 'Gemini CLI (ad hoc)', command: 'env', stateDirs: ['~/.gemini'], envAllowlist: expect.arrayContaining(['GEMINI_API_KEY']) });
  });
});
