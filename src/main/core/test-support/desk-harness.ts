// Test support: a real desk (SQLite, git repo, scripted agent, HTTP on 127.0.0.1) in a temp dir, and ways to talk to it.
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import type { EventEnvelope } from '../../../shared/events';
import { PolicyFile, type Capability } from '../../../shared/governance';
import type { SandboxStatus } from '../../../shared/sandbox';
import type { TaskStatus } from '../../../shared/task';
import { scriptedAgentSpec } from '../agents/builtin-agents';
import type { AgentSpec } from '../agents/agent-spec';
import { createCore, type Core } from '../core';
import type { CoreConfig } from '../core-config';
import { createPolicyFileStore } from '../governance/policy-file';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { TaskEvent } from '../../../shared/events';
import { commitFiles, git, isolateGitConfig } from '../git/git-test-fixture';

export const SCRIPTED_AGENT_SOURCE = resolve(import.meta.dirname, '../../../scripted-agent/scripted-agent-main.ts');
export const TEST_TOKEN = 'test-token-0123456789abcdef';

export interface Desk {
  core: Core;
  url: string;
  repo: string;
  dataDir: string;
  /** JSON request with the token unless `headers.authorization` says otherwise. */
  api(method: string, path: string, body?: unknown, headers?: OutgoingHttpHeaders): Promise<RawResponse>;
  raw(method: string, path: string, options?: { headers?: OutgoingHttpHeaders; body?: string | Buffer }): Promise<RawResponse>;
  /** Resolves when the task reaches one of `statuses` (checked now, then on every event). */
  waitForStatus(id: string, statuses: TaskStatus | TaskStatus[], timeoutMs?: number): Promise<TaskStatus>;
  close(): Promise<void>;
}

export interface RawResponse { status: number; headers: Record<string, string | string[] | undefined>; text: string; json: any } // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever shape each route answers

export interface DeskOptions {
  concurrency?: number;
  /** Agents besides the known vendor ones (which a test desk leaves out); default: the scripted agent alone. */
  agents?: AgentSpec[];
  /** Where agent programs are looked up after PATH. */
  searchDirs?: string[];
  /** A built board to serve at /ui/. */
  uiDir?: string;
  files?: Record<string, string>;
  /** Reuse a repo and data dir (to restart a desk over the same state). */
  reuse?: { root: string; repo: string; dataDir: string };
  /** What confines agents; default: what this machine offers (bubblewrap where it works). */
  sandbox?: SandboxStatus;
  /** A governance policy written to the data dir before the desk starts; default: none (the built-in policy). */
  policy?: z.input<typeof PolicyFile>;
  /** Bounds on stored output (cap, retention days). */
  output?: CoreConfig['output'];
  /** The desk's clock; default: the real one. */
  now?: () => Date;
  /** More repositories to open besides the default one. */
  moreRepos?: string[];
  /** Where agents may run; default: `local` alone. */
  runners?: CoreConfig['runners'];
  /** Hold every answer to its route's contract (a mismatch answers 500); default on. Benchmarks turn it off to measure the desk as it is served. */
  checkAnswers?: boolean;
  /** The desk's environment (forge tokens and API addresses); default: empty, and the home is the test's temp dir. */
  env?: CoreConfig['env'];
  /** Every line the desk logs (besides printing them when DESK_TEST_LOG is set). */
  log?: (line: string) => void;
  /** How often open pull requests are read again; default: the desk's 60 s. */
  pullRequestPollMs?: number;
  /** Worktrees as layers (CoreConfig.layers); default: DESK_TEST_LAYERS, else `auto` (a test repository is small: checkouts). */
  layers?: CoreConfig['layers'];
  /** How long a judge of attempts may take; default the desk's 15 min. */
  judgeTimeoutMs?: number;
}

/**
 * A policy allowing `capabilities` without a person, for tests that are not about governance but whose
 * agents run commands or delete files: the built-in policy asks a person first, and these tests have
 * nobody to answer.
 */
export function policyAllowing(...capabilities: Capability[]): z.input<typeof PolicyFile> {
  return { version: 1, defaults: { capabilities: Object.fromEntries(capabilities.map((capability) => [capability, 'allow'])) } };
}

export function scriptedAgent(): AgentSpec {
  return scriptedAgentSpec(SCRIPTED_AGENT_SOURCE);
}

/** The same scripted agent speaking the Kandev dialect. */
export function kandevScriptedAgent(): AgentSpec {
  const scripted = scriptedAgent();
  return { ...scripted, id: 'scripted-kandev', name: 'Scripted agent (Kandev)', args: [...scripted.args, '--dialect', 'kandev'], dialect: 'kandev' };
}

/**
 * For a test file whose tests each start their own desk: isolates git config for the file and destroys
 * every desk a test opened when it ends. Returns the function that opens one.
 */
export function desksPerTest(): (options?: DeskOptions) => Promise<Desk & { root: string }> {
  let restoreGit: () => void = () => {};
  const opened: (Desk & { root: string })[] = [];
  beforeAll(() => { restoreGit = isolateGitConfig(); });
  afterAll(() => restoreGit());
  afterEach(async () => {
    for (const desk of opened.splice(0)) await destroyDesk(desk);
  });
  return async (options) => {
    const desk = await startDesk(options);
    opened.push(desk);
    return desk;
  };
}

/**
 * For a test file whose tests share one desk: isolates git config, starts the desk before the first
 * test and destroys it after the last. Read the desk through the returned function.
 */
export function deskPerFile(options: DeskOptions = {}): () => Desk & { root: string } {
  let restoreGit: () => void = () => {};
  let desk: (Desk & { root: string }) | undefined;
  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    desk = await startDesk(options);
  });
  afterAll(async () => {
    await destroyDesk(desk);
    restoreGit();
  });
  return () => {
    if (!desk) throw new Error('The desk starts in beforeAll; read it inside a test.');
    return desk;
  };
}

/** A task's recorded events, oldest first. */
export async function taskEvents(desk: Desk, id: string): Promise<TaskEvent[]> {
  return (await desk.api('GET', `/api/tasks/${encodeURIComponent(id)}/events?limit=5000`)).json.events.map((e: { event: TaskEvent }) => e.event);
}

/**
 * Resolves with the first event of `eventsId` (a task id, or a login's `login:<agent>`) that `matches`,
 * whether it was recorded before the call or comes later: the bus is subscribed first, then the recorded
 * events are read in the same tick, so none is missed or seen twice. `matches` sees them in order.
 */
export function waitForEvent(desk: Desk, eventsId: string, matches: (envelope: EventEnvelope) => boolean, timeoutMs = 20_000): Promise<EventEnvelope> {
  return new Promise((resolveEvent, reject) => {
    let settled = false;
    const settle = (envelope: EventEnvelope) => {
      if (settled) return;
      settled = true;
      cleanup();
      resolveEvent(envelope);
    };
    const unsubscribe = desk.core.bus.subscribe((envelope) => { if (!settled && envelope.taskId === eventsId && matches(envelope)) settle(envelope); });
    const timer = setTimeout(() => { cleanup(); reject(new Error(`No matching event for ${eventsId} in ${timeoutMs} ms`)); }, timeoutMs);
    function cleanup() { clearTimeout(timer); unsubscribe(); }
    const recorded = desk.core.events.listForTask(eventsId, { limit: 100_000 }).find(matches);
    if (recorded) settle(recorded);
  });
}

/** A fresh git repository with one commit on `main`. */
export function makeRepo(root: string, files: Record<string, string> = { 'README.md': '# Fixture\n' }): string {
  const repo = join(root, 'repo');
  git(root, 'init', '--quiet', '--initial-branch=main', repo);
  commitFiles(repo, files, 'Initial commit');
  return repo;
}

/** Writes `policy` as the data dir's policy file, for a desk (or `serve` host) about to start over it. */
export function writePolicy(dataDir: string, policy: z.input<typeof PolicyFile>): void {
  createPolicyFileStore(dataDir).save(PolicyFile.parse(policy));
}

export async function startDesk(options: DeskOptions = {}): Promise<Desk & { root: string }> {
  const root = options.reuse?.root ?? mkdtempSync(join(tmpdir(), 'desk-test-'));
  const repo = options.reuse?.repo ?? makeRepo(root, options.files);
  const dataDir = options.reuse?.dataDir ?? join(root, 'data');
  const specs = options.agents ?? [scriptedAgent()];
  if (options.policy !== undefined) writePolicy(dataDir, options.policy);
  const core = await createCore({
    repoPath: repo, dataDir, token: TEST_TOKEN, concurrency: options.concurrency ?? 2, defaultAgent: 'scripted',
    agents: {
      scripted: specs.find((spec) => spec.id === 'scripted') ?? scriptedAgent(),
      builtins: [],
      custom: specs.filter((spec) => spec.id !== 'scripted'),
      searchDirs: options.searchDirs ?? [],
      env: process.env,
    },
    allowedHosts: [], allowedOrigins: ['https://prompt-pad.danmercer.net'],
    serverName: 'Test desk', appVersion: '0.0.0-test', log: (line) => { options.log?.(line); if (process.env.DESK_TEST_LOG) console.log(line); }, checkAnswers: options.checkAnswers ?? true,
    ...(options.uiDir !== undefined && { uiDir: options.uiDir }),
    ...(options.sandbox !== undefined && { sandbox: options.sandbox }),
    ...(options.output !== undefined && { output: options.output }),
    ...(options.now !== undefined && { now: options.now }),
    ...(options.moreRepos !== undefined && { moreRepos: options.moreRepos }),
    ...(options.runners !== undefined && { runners: options.runners }),
    // Never the person's own gh / glab login, nor tokens from the shell that runs the tests.
    env: options.env ?? {}, home: root,
    ...(options.pullRequestPollMs !== undefined && { pullRequestPollMs: options.pullRequestPollMs }),
    layers: options.layers ?? layersFromEnvironment(),
    ...(options.judgeTimeoutMs !== undefined && { judgeTimeoutMs: options.judgeTimeoutMs }),
  });
  const address = await core.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${address.port}`;

  const raw: Desk['raw'] = (method, path, { headers = {}, body } = {}) => rawRequest(url, method, path, headers, body);
  const desk: Desk & { root: string } = {
    core, url, repo, dataDir, root, raw,
    api: (method, path, body, headers = {}) => raw(method, path, {
      headers: { authorization: `Bearer ${TEST_TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
    waitForStatus: (id, statuses, timeoutMs = 20_000) => waitForStatus(core, id, Array.isArray(statuses) ? statuses : [statuses], timeoutMs),
    close: () => core.close(),
  };
  return desk;
}

/** Closes the desk and removes its temp dir. */
export async function destroyDesk(desk: (Desk & { root: string }) | undefined): Promise<void> {
  if (!desk) return;
  await desk.close();
  rmSync(desk.root, { recursive: true, force: true });
}

export function rawRequest(base: string, method: string, path: string, headers: OutgoingHttpHeaders, body?: string | Buffer): Promise<RawResponse> {
  return new Promise((resolveResponse, reject) => {
    // Node sends DELETE bodies without framing unless told the length.
    const framed = body === undefined || headers['content-length'] !== undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) };
    const request = httpRequest(new URL(path, base), { method, headers: framed }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
        resolveResponse({ status: response.statusCode ?? 0, headers: response.headers, text, json });
      });
      // A connection cut after the answer began (a handler that failed mid-answer) fails the request, as before it.
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

function waitForStatus(core: Core, id: string, statuses: TaskStatus[], timeoutMs: number): Promise<TaskStatus> {
  return new Promise((resolveStatus, reject) => {
    const check = (): boolean => {
      const status = core.tasks.list().find((t) => t.id === id)?.status;
      if (status && statuses.includes(status)) {
        cleanup();
        resolveStatus(status);
        return true;
      }
      return false;
    };
    const unsubscribe = core.bus.subscribe((event: EventEnvelope) => { if (event.taskId === id) check(); });
    const timer = setTimeout(() => {
      cleanup();
      const task = core.tasks.list().find((t) => t.id === id);
      // A task that ended elsewhere says why, so a failure under load can be read from the log alone.
      const why = task?.status === 'error' ? `: ${core.tasks.detail(id).errorMessage ?? 'no message'}` : '';
      reject(new Error(`Task ${id} did not reach ${statuses.join('/')} in ${timeoutMs} ms (it is ${task?.status ?? 'unknown'}${why})`));
    }, timeoutMs);
    function cleanup() { clearTimeout(timer); unsubscribe(); }
    check();
  });
}

/** DESK_TEST_LAYERS=always runs every test desk's worktrees as layers (or `never`, as checkouts). */
function layersFromEnvironment(): CoreConfig['layers'] {
  const wanted = process.env.DESK_TEST_LAYERS;
  return wanted === 'always' || wanted === 'never' ? wanted : 'auto';
}
