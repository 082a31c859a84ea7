// GET /api/governance/agents/<id>/sandbox-view on a real desk: what Settings shows of an agent's sandbox, from the
// planner the sandbox uses, for a home of the test's own. The view is planned, never run: any machine answers it.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentSandboxView, SandboxViewEntry } from '../../../shared/sandbox-view';
import type { SandboxStatus } from '../../../shared/sandbox';
import { desksPerTest } from '../test-support/desk-harness';

const BUBBLEWRAP: SandboxStatus = { kind: 'bubblewrap', available: true, version: 'bubblewrap 0.11.0', path: '/usr/bin/bwrap' };

describe('the sandbox view of an agent', () => {
  const openDesk = desksPerTest();
  let home: string;
  const savedHome = process.env.HOME;

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'desk-view-home-'));
    for (const dir of ['.nvm', '.ssh', 'notes', 'projects/secret']) mkdirSync(join(home, dir), { recursive: true });
    process.env.HOME = home;
  });
  afterAll(() => {
    process.env.HOME = savedHome;
    rmSync(home, { recursive: true, force: true });
  });

  const entryAt = (view: AgentSandboxView, path: string): SandboxViewEntry | undefined => view.entries.findLast((entry) => entry.path === path);

  it('shows the agent its own /tmp, its worktree writable, and of the home only the toolchains', async () => {
    const desk = await openDesk({ sandbox: BUBBLEWRAP });
    const answer = await desk.api('GET', '/api/governance/agents/scripted/sandbox-view');
    expect(answer.status).toBe(200);
    const view = answer.json as AgentSandboxView;
    expect(view.confined).toBe(true);
    expect(entryAt(view, '/tmp')).toMatchObject({ access: 'writable', why: expect.stringContaining('temp dir') });
    expect(entryAt(view, home)).toMatchObject({ access: 'hidden' });
    expect(entryAt(view, join(home, '.nvm'))).toMatchObject({ access: 'readable' });
    expect(entryAt(view, join(home, '.ssh'))?.access).toBe('hidden');
    expect(entryAt(view, join(home, 'notes'))).toBeUndefined();
    expect(entryAt(view, join(desk.dataDir, 'worktrees', '<task>'))).toMatchObject({ access: 'writable', why: "the task's worktree" });
    expect(entryAt(view, desk.dataDir)).toMatchObject({ access: 'hidden' });
  });

  it('shows what the policy\'s hiddenPaths hide and its readablePaths open, once the policy is saved', async () => {
    const desk = await openDesk({ sandbox: BUBBLEWRAP });
    const saved = await desk.api('PUT', '/api/governance/policy', { version: 1, agents: { scripted: { hiddenPaths: ['~/.nvm'], readablePaths: ['~/notes'] } } });
    expect(saved.status).toBe(200);
    const view = (await desk.api('GET', '/api/governance/agents/scripted/sandbox-view')).json as AgentSandboxView;
    expect(entryAt(view, join(home, '.nvm'))).toMatchObject({ access: 'hidden', why: expect.stringContaining('hiddenPaths') });
    expect(entryAt(view, join(home, 'notes'))).toMatchObject({ access: 'readable', why: expect.stringContaining('readablePaths') });
    expect(entryAt(view, join(home, 'projects', 'secret'))).toBeUndefined();
  });

  it('says an agent the policy runs unsandboxed sees everything', async () => {
    const desk = await openDesk({ sandbox: BUBBLEWRAP, policy: { version: 1, agents: { scripted: { sandbox: 'off' } } } });
    const view = (await desk.api('GET', '/api/governance/agents/scripted/sandbox-view')).json as AgentSandboxView;
    expect(view).toMatchObject({ confined: false, entries: [], note: expect.stringContaining('Unsandboxed') });
  });

  it('answers 404 naming the agent the desk does not know', async () => {
    const desk = await openDesk({ sandbox: BUBBLEWRAP });
    const answer = await desk.api('GET', '/api/governance/agents/nobody/sandbox-view');
    expect(answer.status).toBe(404);
    expect(answer.json.message).toContain('"nobody"');
  });
});
