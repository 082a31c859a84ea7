// One turn of one task through the real task runner, real git in a temp repo and a real agent process, with the
// isolation a test names: "confined" is an isolation that says it confines and starts the agent as it is, since this
// machine may have no bubblewrap. For tests of what the runner decides from the isolation (the agent's mode).
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskEvent } from '../../../../shared/events';
import type { SandboxKind } from '../../../../shared/sandbox';
import type { AgentSpec } from '../../agents/agent-spec';
import { createGitService } from '../../git/git-service';
import type { TaskRecord } from '../../store/tasks-repo';
import { makeRepo } from '../../test-support/desk-harness';
import { runTask, type RunContext, type RunOutcome } from '../task-runner';

export interface OneTurn {
  outcome: RunOutcome;
  events: TaskEvent[];
  /** The text of a file in the turn's commit, if it has one. */
  fileInCommit(path: string): string | undefined;
}

/** `stopWhen`: the turn is cancelled at the first event it matches (for an agent that would wait on its model). */
export async function runOneTurn(options: { root: string; agent: AgentSpec; kind: SandboxKind; stopWhen?: (event: TaskEvent) => boolean }): Promise<OneTurn> {
  const { agent, kind } = options;
  const repo = makeRepo(mkdtempSync(join(options.root, 'repo-')));
  const data = mkdtempSync(join(options.root, 'data-'));
  const git = createGitService({ repoRoot: repo, worktreesDir: join(data, 'worktrees'), hooksDir: join(data, 'hooks'), stateDir: join(data, 'state'), deskId: 'test' });
  const events: TaskEvent[] = [];
  const controller = new AbortController();
  const task = { id: 'turn', prompt: 'work', dependencies: [], agent: agent.id, baseBranch: await git.currentBranch(), attempt: 1, status: 'in-progress' } as unknown as TaskRecord;
  const refused = () => Promise.reject(new Error('not in this test'));
  const context: RunContext = {
    task, turn: { number: 1, prompt: 'work' }, signal: controller.signal, git,
    branchOf: (id) => git.branchFor(id), agents: { get: () => agent } as unknown as RunContext['agents'], clientVersion: 'test',
    update: () => {},
    record: (event) => {
      events.push(event);
      if (options.stopWhen?.(event)) controller.abort();
    },
    onSession: () => {},
    decidePermission: refused, elicit: refused, authorizeCommand: refused, authorizeFile: refused,
    workspace: { setUp: () => Promise.resolve({}), config: () => Promise.resolve({ copy: [] }) }, cleanUpPrevious: () => Promise.resolve(),
    isolate: () => Promise.resolve({
      kind, description: kind === 'none' ? 'No sandbox' : `Confined by ${kind}`, env: {},
      wrap: (command, args) => ({ command, args: [...args] }), dispose: () => Promise.resolve(),
    }),
  };
  const outcome = await runTask(context);
  return {
    outcome, events,
    fileInCommit: (path) => {
      if (outcome.status !== 'completed' || outcome.commit === undefined) return undefined;
      return execFileSync('git', ['-C', repo, 'show', `${outcome.commit}:${path}`], { encoding: 'utf8' });
    },
  };
}
