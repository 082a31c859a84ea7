// Model-based test of the task graph in memory: random submissions, resubmissions, links, unlinks, cancels, runs
// ending and restarts over one real SQLite file, checked after every step against the database and a plain model.
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { AgentRegistry } from '../agents/agent-registry';
import type { AgentSpec } from '../agents/agent-spec';
import type { GitService } from '../git/git-service';
import { openDatabase, type Db } from '../store/database';
import { createTasksRepo, type TaskRecord } from '../store/tasks-repo';
import { createTurnsRepo } from '../store/turns-repo';
import type { PermissionGate } from './agent-requests';
import { blockedReason, unmetDependencies } from './dependency-graph';
import type { RunContext, RunOutcome } from './task-runner';
import { createTaskService, type TaskService } from './task-service';
import { toSummary } from './task-view';

const IDS = ['a', 'b', 'c', 'd', 'e', 'f'];
const CONCURRENCY = 2;
const REPO = '/model/repo';
const dir = mkdtempSync(join(tmpdir(), 'desk-graph-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Command =
  | { kind: 'submit'; id: string; dependencies: string[] }
  | { kind: 'link' | 'unlink'; id: string; dependency: string }
  | { kind: 'cancel'; id: string }
  | { kind: 'finish'; pick: number; outcome: 'completed' | 'error' }
  | { kind: 'restart' };

const id = fc.constantFrom(...IDS);
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('submit' as const), id, dependencies: fc.uniqueArray(id, { maxLength: 2 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('link' as const, 'unlink' as const), id, dependency: id }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), id }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('finish' as const), pick: fc.nat(), outcome: fc.constantFrom('completed' as const, 'completed' as const, 'completed' as const, 'error' as const) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);

const agent: AgentSpec = { id: 'fake', name: 'Fake', command: 'true', args: [], dialect: 'acp', envAllowlist: [], env: {} };
const agents: AgentRegistry = { get: (agentId) => (agentId === 'fake' ? agent : undefined), has: (agentId) => agentId === 'fake', list: () => [agent], describe: () => [], describeOne: () => undefined, npmPackageOf: () => undefined };
const gate: PermissionGate = { review: () => ({ id: 'x', decision: 'approved', rule: 'test', reason: 'test' }), complete: () => {}, closeOpen: () => {} };

/** A desk over one SQLite file whose runs end when the test says, or when they are aborted. */
function openDesk(path: string, violations: string[]) {
  const db: Db = openDatabase(path);
  const repo = createTasksRepo(db, REPO);
  const runs = new Map<string, (outcome: RunOutcome) => void>();
  let clock = Date.parse('2030-01-01T00:00:00Z');
  const run = (context: RunContext): Promise<RunOutcome> => {
    // The durable record at the moment a task starts: every dependency must have completed.
    for (const dependency of context.task.dependencies) {
      const status = repo.get(dependency)?.status;
      if (status !== 'completed') violations.push(`${context.task.id} started while ${dependency} was ${status ?? 'unknown'}`);
    }
    return new Promise((resolve) => {
      runs.set(context.task.id, resolve);
      context.signal.addEventListener('abort', () => resolve({ status: 'cancelled' }), { once: true });
    });
  };
  const service: TaskService = createTaskService({
    tasks: repo, turns: createTurnsRepo(db, REPO), git: {} as GitService, agents, gate, record: () => {}, run,
    sandbox: { isolate: async () => { throw new Error('no runs here'); }, confines: () => true },
    workspace: { setUp: async () => ({}), cleanUp: async () => {}, config: async () => ({ copy: [] }) },
    now: () => new Date((clock += 1000)),
    config: { concurrency: CONCURRENCY, defaultAgent: 'fake', baseBranch: 'main', clientVersion: 'test' },
  });
  return { db, repo, service, runs };
}

/** A plain reachability check over the whole stored graph: does `from` reach `to`? */
function reaches(graph: ReadonlyMap<string, readonly string[]>, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const node = stack.pop() as string;
    if (node === to) return true;
    if (seen.has(node)) continue;
    seen.add(node);
    stack.push(...(graph.get(node) ?? []));
  }
  return false;
}

const wouldCycle = (stored: readonly TaskRecord[], taskId: string, dependencies: readonly string[]) => {
  const graph = new Map(stored.filter((t) => t.id !== taskId).map((t) => [t.id, t.dependencies]));
  return dependencies.some((d) => reaches(graph, d, taskId));
};

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** What `work` was refused with, or undefined when it went through. */
async function attempt(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
    return undefined;
  } catch (error) {
    return error;
  }
}

function checkAgreement(desk: ReturnType<typeof openDesk>): void {
  const stored = desk.repo.list();
  const { graph, listing } = desk.service;
  expect([...graph.nodes()].length).toBe(stored.length);
  for (const task of stored) {
    expect(graph.get(task.id)).toEqual({
      id: task.id, seq: task.seq, status: task.status, agent: task.agent, dependencies: task.dependencies, review: task.review,
      ...(task.after !== undefined && { after: task.after }),
    });
    for (const dependency of task.dependencies) expect(graph.dependentsOf(dependency).has(task.id)).toBe(true);
  }
  for (const candidate of [...IDS, 'ghost']) {
    for (const dependent of graph.dependentsOf(candidate)) expect(graph.get(dependent)?.dependencies).toContain(candidate);
  }
  // The list clients read is what the database holds, in submission order, with why a waiting task is stuck
  // worked out from the stored dependencies (so a dependency's change must have reached its dependents' summaries).
  const storedState = new Map(stored.map((t) => [t.id, { status: t.status, review: t.review }]));
  const expected = stored.map((task) => toSummary(task, [], false, task.status === 'queued'
    ? blockedReason(unmetDependencies(task.dependencies, (id) => storedState.get(id), task.after))
    : undefined));
  expect(listing.list()).toEqual(expected);
  expect(JSON.parse(listing.json().json)).toEqual(expected);
  // Acyclic, always.
  const byId = new Map(stored.map((t) => [t.id, t.dependencies]));
  for (const task of stored) expect(task.dependencies.some((d) => reaches(byId, d, task.id))).toBe(false);
  // Nothing ready waits while a slot is free: the incremental scheduler missed no task.
  const running = stored.filter((t) => t.status === 'in-progress' || t.status === 'awaiting-input').length;
  expect(running).toBeLessThanOrEqual(CONCURRENCY);
  const status = new Map(stored.map((t) => [t.id, t.status]));
  const ready = stored.filter((t) => t.status === 'queued' && t.dependencies.every((d) => status.get(d) === 'completed'));
  if (running < CONCURRENCY) expect(ready.map((t) => t.id)).toEqual([]);
}

let runNumber = 0;
/** The story the random ones must cover too: a dependent starts once its dependency completes. */
const CHAIN: Command[] = [
  { kind: 'submit', id: 'a', dependencies: [] }, { kind: 'submit', id: 'b', dependencies: ['a'] }, { kind: 'finish', pick: 0, outcome: 'completed' },
];

it('keeps the graph in memory equal to the database through any sequence of submissions, links, cancels, runs and restarts', async () => {
  await fc.assert(fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
    const path = join(dir, `model-${(runNumber += 1)}.sqlite`);
    const violations: string[] = [];
    let desk = openDesk(path, violations);
    desk.service.start();
    try {
      for (const step of commands) {
        const stored = desk.repo.list();
        const existing = stored.find((t) => t.id === ('id' in step ? step.id : ''));
        if (step.kind === 'submit') {
          const error = await attempt(() => desk.service.submit({ id: step.id, prompt: `do ${step.id}`, dependencies: step.dependencies }));
          if (wouldCycle(stored, step.id, step.dependencies)) expect(error).toMatchObject({ code: 'dependency_cycle' });
          else expect(error).toBeUndefined();
        } else if (step.kind === 'link' || step.kind === 'unlink') {
          const current = existing?.dependencies ?? [];
          const next = step.kind === 'link' ? [...current, step.dependency] : current.filter((d) => d !== step.dependency);
          const error = await attempt(() => desk.service.setDependencies(step.id, next));
          if (!existing) expect(error).toMatchObject({ code: 'task_not_found' });
          else if (existing.status !== 'queued') expect(error).toMatchObject({ code: 'task_busy' });
          else if (wouldCycle(stored, step.id, [...new Set(next)])) expect(error).toMatchObject({ code: 'dependency_cycle' });
          else expect(error).toBeUndefined();
        } else if (step.kind === 'cancel') {
          const error = await attempt(() => desk.service.cancel(step.id));
          if (!existing) expect(error).toMatchObject({ code: 'task_not_found' });
          else expect(error).toBeUndefined();
        } else if (step.kind === 'finish') {
          const running = [...desk.runs.keys()].filter((runId) => desk.repo.get(runId)?.status === 'in-progress');
          const chosen = running[step.pick % Math.max(running.length, 1)];
          if (chosen) {
            const finish = desk.runs.get(chosen) as (outcome: RunOutcome) => void;
            desk.runs.delete(chosen);
            finish(step.outcome === 'completed' ? { status: 'completed', commit: `c-${chosen}`, output: '' } : { status: 'error', message: 'failed' });
          }
        } else {
          await desk.service.shutdown();
          desk.db.close();
          desk = openDesk(path, violations);
          await desk.service.recover();
          desk.service.start();
        }
        await settle();
        checkAgreement(desk);
        expect(violations).toEqual([]);
      }
    } finally {
      await desk.service.shutdown();
      desk.db.close();
      rmSync(path, { force: true });
      rmSync(`${path}-wal`, { force: true });
      rmSync(`${path}-shm`, { force: true });
    }
  }), { numRuns: 1000, examples: [[CHAIN]] });
}, 120_000);
