import { describe, expect, it } from 'vitest';
import { agentEnvironment } from './agent-environment';

const parent = { PATH: '/usr/bin', HOME: '/home/me', LC_ALL: 'C.UTF-8', OPENAI_API_KEY: 'sk-secret', AWS_SECRET_ACCESS_KEY: 'x', GEMINI_API_KEY: 'g' };

describe('agentEnvironment', () => {
  it('passes what a program needs and keeps the desk\'s secrets out', () => {
    expect(agentEnvironment(parent, { envAllowlist: [], env: {} })).toEqual({ PATH: '/usr/bin', HOME: '/home/me', LC_ALL: 'C.UTF-8' });
  });

  it('passes a secret only when the agent is configured to get it', () => {
    const env = agentEnvironment(parent, { envAllowlist: ['GEMINI_API_KEY'], env: {} });
    expect(env.GEMINI_API_KEY).toBe('g');
    expect(env.OPENAI_API_KEY).toBeUndefined();
  });

  it('sets the agent\'s own variables over inherited ones', () => {
    expect(agentEnvironment(parent, { envAllowlist: [], env: { HOME: '/sandbox', MODE: 'demo' } })).toMatchObject({ HOME: '/sandbox', MODE: 'demo' });
  });
});
