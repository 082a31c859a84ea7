import { describe, expect, it } from 'vitest';
import { agentEnvironment } from './agent-environment';
import { KNOWN_AGENTS } from './known-agents';

/** A person's shell pointed at gateways for every vendor at once, with every vendor's key. */
const shell = {
  PATH: '/usr/bin', HOME: '/home/me',
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000', ANTHROPIC_AUTH_TOKEN: 'anthropic-token', ANTHROPIC_API_KEY: 'sk-ant-secret',
  ANTHROPIC_CUSTOM_HEADERS: 'x-team: desk', ANTHROPIC_MODEL: 'local-claude', ANTHROPIC_SMALL_FAST_MODEL: 'local-haiku',
  OPENAI_BASE_URL: 'http://127.0.0.1:4001/v1', OPENAI_API_KEY: 'sk-openai-secret', OPENAI_MODEL: 'qwen-local', CODEX_HOME: '/home/me/.codex',
  GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:4002', GEMINI_API_KEY: 'gemini-secret', GEMINI_MODEL: 'gemini-local',
  OPENCODE_CONFIG_CONTENT: '{"provider":{}}', AWS_SECRET_ACCESS_KEY: 'aws-secret', GITHUB_TOKEN: 'ghp-secret',
};
const envOf = (id: string) => {
  const spec = KNOWN_AGENTS.find((agent) => agent.id === id);
  if (!spec) throw new Error(`no known agent ${id}`);
  return agentEnvironment(shell, spec);
};

describe('known agents pointed at a gateway', () => {
  it.each(['claude-agent-acp', 'claude-code-acp'])('%s gets Anthropic\'s gateway, token, headers and models, and no other vendor\'s key', (id) => {
    expect(envOf(id)).toEqual({
      PATH: '/usr/bin', HOME: '/home/me', ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000', ANTHROPIC_AUTH_TOKEN: 'anthropic-token',
      ANTHROPIC_API_KEY: 'sk-ant-secret', ANTHROPIC_CUSTOM_HEADERS: 'x-team: desk', ANTHROPIC_MODEL: 'local-claude', ANTHROPIC_SMALL_FAST_MODEL: 'local-haiku',
    });
  });

  it('Codex gets OpenAI\'s gateway and key and its own home with config.toml, and no other vendor\'s key', () => {
    expect(envOf('codex-acp')).toEqual({
      PATH: '/usr/bin', HOME: '/home/me', OPENAI_BASE_URL: 'http://127.0.0.1:4001/v1', OPENAI_API_KEY: 'sk-openai-secret', CODEX_HOME: '/home/me/.codex',
    });
  });

  it('Gemini CLI gets Google\'s gateway, key and model, and no other vendor\'s key', () => {
    expect(envOf('gemini')).toEqual({
      PATH: '/usr/bin', HOME: '/home/me', GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:4002', GEMINI_API_KEY: 'gemini-secret', GEMINI_MODEL: 'gemini-local',
    });
  });

  it('Qwen Code gets an OpenAI-compatible endpoint, key and model, and no Anthropic or Google key', () => {
    expect(envOf('qwen')).toEqual({
      PATH: '/usr/bin', HOME: '/home/me', OPENAI_BASE_URL: 'http://127.0.0.1:4001/v1', OPENAI_API_KEY: 'sk-openai-secret', OPENAI_MODEL: 'qwen-local',
    });
  });

  it('OpenCode gets its inline config and the providers\' endpoints and keys it may be configured for, never cloud or GitHub secrets', () => {
    const env = envOf('opencode');
    expect(env).toMatchObject({ OPENCODE_CONFIG_CONTENT: '{"provider":{}}', ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000', OPENAI_BASE_URL: 'http://127.0.0.1:4001/v1' });
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(env.GITHUB_TOKEN).toBeUndefined();
  });

  it('never hands a cloud or GitHub secret to an agent whose vendor does not read it', () => {
    for (const agent of KNOWN_AGENTS.filter((known) => known.id !== 'copilot')) {
      const env = agentEnvironment(shell, agent);
      expect(env.AWS_SECRET_ACCESS_KEY, agent.id).toBeUndefined();
      expect(env.GITHUB_TOKEN, agent.id).toBeUndefined();
    }
  });

  it('names a confined mode only for Codex, the one agent that sandboxes its own commands', () => {
    expect(KNOWN_AGENTS.filter((agent) => agent.confinedMode !== undefined).map((agent) => [agent.id, agent.confinedMode])).toEqual([['codex-acp', 'agent-full-access']]);
  });
});
