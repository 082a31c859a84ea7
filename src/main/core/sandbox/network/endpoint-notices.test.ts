// What the sandbox says at the start of a task about model endpoints the agent is pointed at but cannot reach.
import { describe, expect, it } from 'vitest';
import { endpointsInEnvironment, endpointsInToml, entryFor, reachableGateway, unreachableEndpointNotices } from './endpoint-notices';

const noticesFor = (env: Record<string, string>, network: string[]) => unreachableEndpointNotices(endpointsInEnvironment(env), network);

describe('unreachableEndpointNotices', () => {
  it('names the variable, the endpoint and the entry to add for a loopback gateway the policy does not name', () => {
    expect(noticesFor({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000', PATH: '/bin' }, ['api.anthropic.com'])).toEqual([
      'The agent\'s ANTHROPIC_BASE_URL points at 127.0.0.1:4000, which the sandbox keeps out of reach: add "127.0.0.1:4000" to the policy\'s network.',
    ]);
  });

  it('says nothing when the policy names the endpoint, or opens the network', () => {
    expect(noticesFor({ OPENAI_BASE_URL: 'http://127.0.0.1:4000/v1' }, ['127.0.0.1:4000'])).toEqual([]);
    expect(noticesFor({ OPENAI_BASE_URL: 'http://127.0.0.1:4000/v1' }, ['*'])).toEqual([]);
  });

  it('asks for the exact spelling the agent uses: localhost in the policy does not cover 127.0.0.1', () => {
    expect(noticesFor({ GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:8080' }, ['localhost:8080'])).toEqual([
      expect.stringContaining('add "127.0.0.1:8080"'),
    ]);
  });

  it('covers remote gateways too, leaving out the port for HTTPS on 443', () => {
    expect(noticesFor({ ANTHROPIC_BASE_URL: 'https://llm.corp.example/anthropic' }, [])).toEqual([expect.stringContaining('add "llm.corp.example"')]);
    expect(noticesFor({ OPENAI_BASE_URL: 'https://llm.corp.example:8443' }, [])).toEqual([expect.stringContaining('add "llm.corp.example:8443"')]);
  });

  it('reads Ollama\'s host without a scheme and ignores variables that are not URLs', () => {
    expect(noticesFor({ OLLAMA_HOST: '127.0.0.1:11434', ANTHROPIC_BASE_URL: '' }, [])).toEqual([expect.stringContaining('add "127.0.0.1:11434"')]);
    expect(noticesFor({ HOME: 'http://127.0.0.1:1', OPENAI_BASE_URL: 'not a url at all' }, [])).toEqual([]);
  });

  it('finds the base_url of a Codex model provider in its config.toml', () => {
    const toml = '[model_providers.local]\nname = "local"\nbase_url = "http://[::1]:7000/v1"\nwire_api = "responses"\n';
    expect(unreachableEndpointNotices(endpointsInToml('~/.codex/config.toml', toml), [])).toEqual([
      'The agent\'s ~/.codex/config.toml (base_url) points at [::1]:7000, which the sandbox keeps out of reach: add "[::1]:7000" to the policy\'s network.',
    ]);
  });
});

describe('entryFor', () => {
  it('writes the allowlist entry for a URL', () => {
    expect(['http://localhost:80/x', 'https://API.example.com.', 'http://[::1]:9/'].map(entryFor)).toEqual(['localhost:80', 'api.example.com', '[::1]:9']);
  });
});

describe('reachableGateway', () => {
  it('is the first endpoint the agent is pointed at that the policy lets it reach', () => {
    const sources = endpointsInEnvironment({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000' });
    expect(reachableGateway(sources, ['127.0.0.1:4000'])).toEqual({ entry: '127.0.0.1:4000', name: 'ANTHROPIC_BASE_URL' });
  });

  it('is none when the policy reaches no endpoint, or opens the whole network', () => {
    const sources = endpointsInEnvironment({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000' });
    expect(reachableGateway(sources, ['api.anthropic.com'])).toBeUndefined();
    expect(reachableGateway(sources, ['*'])).toBeUndefined();
  });
});
