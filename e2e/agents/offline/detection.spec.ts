// The registry finds real agents in a node_modules/.bin it is told to search, with nothing on PATH.
import { describe, expect, it } from 'vitest';
import { createAgentRegistry } from '../../../src/main/core/agents/agent-registry';
import { KNOWN_AGENTS } from '../../../src/main/core/agents/known-agents';
import { scriptedAgent } from '../../../src/main/core/test-support/desk-harness';
import { AGENTS_BIN_DIR, REAL_AGENTS } from '../real-agents';

describe('agent detection', () => {
  it('finds each installed agent in the cache\'s node_modules/.bin and launches it from there', () => {
    const registry = createAgentRegistry({ scripted: scriptedAgent(), builtins: KNOWN_AGENTS, custom: [], searchDirs: [AGENTS_BIN_DIR], env: { PATH: '' } });
    const agents = registry.describe('scripted');
    for (const agent of REAL_AGENTS) {
      expect(agents.find((info) => info.id === agent.id)).toMatchObject({ available: true, resolvedPath: expect.stringContaining(AGENTS_BIN_DIR) });
      expect(registry.get(agent.id)?.command.startsWith(AGENTS_BIN_DIR)).toBe(true);
    }
  });
});
