// Codex (codex-acp), started by the task runner the way the desk starts it: confined by the desk, it is switched to its
// "agent-full-access" mode (its own sandbox cannot start inside the desk's), and Codex itself reports the mode in force.
// Its model is a closed port, so the turn is cancelled once the mode is set; no model is needed to see it.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { TaskEvent } from '../../src/shared/events';
import { sandboxForTests } from '../../src/main/core/sandbox/test-support/sandbox-for-tests';
import { runOneTurn } from '../../src/main/core/tasks/test-support/run-one-turn';
import { describeWithAgent } from './agent-availability';
import { CODEX } from './codex-acp-desk';
import { isolatedAgentSpec } from './real-agents';

const root = mkdtempSync(join(tmpdir(), 'desk-codex-mode-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const { skip: noSandbox } = await sandboxForTests();

function codexSpec(home: string) {
  const spec = isolatedAgentSpec(CODEX, home);
  // As a person points Codex at a gateway: its key and base URL, logged in with the API key (no model answers there).
  return { ...spec, authMethod: 'api-key', env: { ...spec.env, OPENAI_API_KEY: 'sk-stand-in', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } };
}

/** The mode Codex says is in force, from its own `config_option_update`s (the last one wins). */
function modeCodexReports(events: readonly TaskEvent[]): string | undefined {
  let mode: string | undefined;
  for (const event of events) {
    if (event.type !== 'agent' || event.update.kind !== 'other' || event.update.name !== 'config_option_update') continue;
    const options = (event.update.data as { configOptions?: { id: string; currentValue?: unknown }[] }).configOptions ?? [];
    const option = options.find((entry) => entry.id === 'mode');
    if (typeof option?.currentValue === 'string') mode = option.currentValue;
  }
  return mode;
}

const modeSet = (event: TaskEvent) => event.type === 'log' && event.text.includes('confines Codex');

describeWithAgent(CODEX, 'Codex under the desk\'s sandbox', () => {
  it.skipIf(noSandbox)(`is switched to agent-full-access, says so in the activity, and Codex reports that mode in force${noSandbox ? ` (skipped: ${noSandbox})` : ''}`, async () => {
    const home = join(root, 'home-confined');
    mkdirSync(home, { recursive: true });
    const run = await runOneTurn({ root, agent: codexSpec(home), kind: 'bubblewrap', stopWhen: modeSet });
    expect(run.events.filter(modeSet)).toEqual([expect.objectContaining({ level: 'info', text: expect.stringContaining('so it runs in its mode "Full access" (agent-full-access)') })]);
    expect(modeCodexReports(run.events)).toBe('agent-full-access');
    expect(run.outcome.status).toBe('cancelled');
  });

  it('keeps its own mode (and its own sandbox) when the desk does not confine it', async () => {
    const home = join(root, 'home-unconfined');
    mkdirSync(home, { recursive: true });
    const modesShown = (event: TaskEvent) => event.type === 'agent' && event.update.kind === 'other' && event.update.name === 'session_modes';
    const run = await runOneTurn({ root, agent: codexSpec(home), kind: 'none', stopWhen: modesShown });
    const shown = run.events.find(modesShown);
    expect(shown?.type === 'agent' && shown.update.kind === 'other' ? shown.update.data : undefined).toMatchObject({ currentModeId: 'agent' });
    expect(run.events.some(modeSet)).toBe(false);
  });
});
