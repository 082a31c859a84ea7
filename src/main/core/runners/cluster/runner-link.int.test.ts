// The cluster runner's connection end to end, without containers: a real desk-side HTTP server accepts the real
// desk-runner helper, which clones a real repository, runs the real scripted agent and serves files and terminals.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../../../shared/events';
import { agentChannel } from '../../agents/agent-channel';
import type { AgentSession } from '../../agents/agent-session';
import { connectAgent } from '../../agents/connect-agent';
import { commitFiles, git, isolateGitConfig } from '../../git/git-test-fixture';
import { acceptRunnerUpgrade, linkOverSocket, type RunnerLink } from './runner-link';

const HELPER = fileURLToPath(new URL('../../../../../resources/desk-runner/desk-runner.mjs', import.meta.url));
const SCRIPTED_AGENT = fileURLToPath(new URL('../../../../scripted-agent/scripted-agent-main.ts', import.meta.url));
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const SCRIPTED_AGENT_COMMAND = [process.execPath, '--import', TSX_LOADER, SCRIPTED_AGENT];
const TOKEN = 'the-desk-runner-token-7c1e';
const TASK_ID = 't1';
const BRANCH = 'desk/t1';

interface Helper {
  readonly exited: Promise<number | null>;
  stderr(): string;
  /** The link the desk accepted for this helper. */
  readonly link: Promise<RunnerLink>;
  /** Lines the agent wrote to stderr, as the desk heard them. */
  readonly log: string[];
}

let restoreGitConfig: () => void;
let root: string;
let repo: string;
let clone: string;
let server: Server;
let deskUrl: string;
let waitingForLink: ((link: RunnerLink) => void)[] = [];
let heardLog: string[] = [];
const helpers: { exited: Promise<number | null>; kill(): void }[] = [];

beforeAll(() => { restoreGitConfig = isolateGitConfig(); });
afterAll(() => restoreGitConfig());

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'runner-link-'));
  repo = join(root, 'repo');
  clone = join(root, 'container', 'worktree');
  git(root, 'init', '--quiet', '--initial-branch=main', repo);
  commitFiles(repo, { 'README.md': '# project\n' }, 'initial');
  git(repo, 'branch', BRANCH);

  server = createServer((_request, response) => { response.writeHead(404).end(); });
  server.on('upgrade', (request, socket, head) => {
    if (request.url !== `/runner/${TASK_ID}/connect` || request.headers.authorization !== `Bearer ${TOKEN}`) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    acceptRunnerUpgrade(socket);
    const link = linkOverSocket(socket, head, { taskId: TASK_ID, onLogLine: (line) => heardLog.push(line) });
    waitingForLink.shift()?.(link);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  deskUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/runner/${TASK_ID}`;
});

afterEach(async () => {
  for (const helper of helpers.splice(0)) {
    helper.kill();
    await helper.exited;
  }
  waitingForLink = [];
  heardLog = [];
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

function startHelper(agent: string[], token = TOKEN): Helper {
  const log = heardLog;
  const link = new Promise<RunnerLink>((resolve) => waitingForLink.push(resolve));
  const child = spawn(process.execPath, [HELPER, '--', ...agent], {
    env: {
      ...process.env,
      DESK_RUNNER_URL: deskUrl,
      DESK_RUNNER_TOKEN: token,
      DESK_RUNNER_GIT_URL: repo,
      DESK_RUNNER_WORKTREE: clone,
      DESK_RUNNER_BRANCH: BRANCH,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  helpers.push({ exited, kill: () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM'); } });
  return { exited, stderr: () => stderr, link, log };
}

/** Connects the desk's own ACP client to the agent behind the link, as the task runner does. */
async function converse(link: RunnerLink, events: TaskEvent[]): Promise<AgentSession> {
  const channel = agentChannel(link.agent.stdout, link.agent.stdin);
  const terminals = link.terminals({ record: (event) => events.push(event), baseEnv: {} });
  return connectAgent(channel, { dialect: 'acp', cwd: clone, clientVersion: 'test' }, {
    onUpdate: () => {},
    handlers: {
      requestPermission: async (request) => {
        const allow = request.options.find((option) => option.kind.startsWith('allow')) ?? request.options[0];
        return allow ? { outcome: 'selected', optionId: allow.optionId } : { outcome: 'cancelled' };
      },
      elicit: async () => ({ action: 'decline' }),
      readTextFile: (request) => link.files.readTextFile(request),
      writeTextFile: (request) => link.files.writeTextFile(request),
      terminals,
    },
  });
}

/** Everything a terminal printed, as the desk's events tell it. */
const terminalText = (events: TaskEvent[]): string =>
  events.flatMap((event) => (event.type === 'terminal-output' ? [event.data] : [])).join('');

/** Polls until `read` finds something (what a process printed arrives when it arrives). */
async function eventually(read: () => string | undefined): Promise<string> {
  for (;;) {
    const found = read();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function ended(helper: Helper, link: RunnerLink): Promise<number | null> {
  await link.agent.stop();
  return helper.exited;
}

describe('the desk-runner connection', () => {
  it('writes the agent\'s files in the clone, not in the desk\'s repository', async () => {
    const helper = startHelper(SCRIPTED_AGENT_COMMAND);
    const link = await helper.link;
    const session = await converse(link, []);

    const end = await session.prompt('write hello.txt hi');

    expect(end.stopReason).toBe('end_turn');
    expect(readFileSync(join(clone, 'hello.txt'), 'utf8')).toBe('hi\n');
    expect(existsSync(join(repo, 'hello.txt'))).toBe(false);
    await ended(helper, link);
  });

  it('runs the agent\'s commands in the container and streams their output as terminal events', async () => {
    const helper = startHelper(SCRIPTED_AGENT_COMMAND);
    const link = await helper.link;
    const events: TaskEvent[] = [];
    const session = await converse(link, events);

    await session.prompt('run echo from-container');

    expect(events.find((event) => event.type === 'terminal-started')).toMatchObject({ cwd: realpathSync(clone) });
    expect(terminalText(events)).toContain('from-container');
    expect(events.find((event) => event.type === 'terminal-exited')).toMatchObject({ exitCode: 0, signal: null });
    await ended(helper, link);
  });

  it('pushes the turn\'s work to the task\'s branch of the repository it cloned', async () => {
    const helper = startHelper(SCRIPTED_AGENT_COMMAND);
    const link = await helper.link;
    const session = await converse(link, []);
    await session.prompt('write hello.txt hi');

    const commit = await link.push();

    expect(git(repo, 'rev-parse', BRANCH)).toBe(commit);
    expect(git(repo, 'show', `${commit}:hello.txt`)).toBe('hi');
    expect(git(repo, 'rev-parse', 'main')).not.toBe(commit);
    await ended(helper, link);
  });

  it('reports a refused push with git\'s reason', async () => {
    const helper = startHelper(['sleep', '30']);
    const link = await helper.link;
    // The desk's branch moved on meanwhile: the helper's push would not be a fast-forward.
    git(repo, 'checkout', '--quiet', BRANCH);
    commitFiles(repo, { 'other.txt': 'elsewhere\n' }, 'moved on');
    git(repo, 'checkout', '--quiet', 'main');
    await link.files.writeTextFile({ path: join(clone, 'mine.txt'), content: 'mine' });

    await expect(link.push()).rejects.toThrow(/git push failed: .*(rejected|fetch first|non-fast-forward)/);
    await ended(helper, link);
  });

  it('gives neither the agent nor its commands the token', async () => {
    const envHelper = startHelper(['sh', '-c', 'env >&2; exit 3']);
    const envLink = await envHelper.link;
    expect(await envLink.agent.exited).toEqual({ code: 3, signal: null });
    expect(await envHelper.exited).toBe(3);
    expect(envHelper.log.some((line) => line.startsWith('PATH='))).toBe(true);
    expect(envHelper.log.join('\n')).not.toMatch(/DESK_RUNNER_|the-desk-runner-token/);

    rmSync(clone, { recursive: true, force: true });
    heardLog.length = 0;
    const helper = startHelper(SCRIPTED_AGENT_COMMAND);
    const link = await helper.link;
    const events: TaskEvent[] = [];
    const session = await converse(link, events);
    await session.prompt('run env');
    expect(terminalText(events)).toContain('PATH=');
    expect(terminalText(events)).not.toMatch(/DESK_RUNNER_|the-desk-runner-token/);
    await ended(helper, link);
  });

  it('refuses files outside the clone, also through a symlink', async () => {
    const helper = startHelper(['sleep', '30']);
    const link = await helper.link;
    symlinkSync('/etc', join(clone, 'etc-link'));

    await expect(link.files.readTextFile({ path: '/etc/passwd' })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/outside/) });
    await expect(link.files.readTextFile({ path: '../x' })).rejects.toMatchObject({ code: -32602 });
    await expect(link.files.readTextFile({ path: join(clone, 'etc-link', 'passwd') })).rejects.toMatchObject({ code: -32602 });
    await expect(link.files.writeTextFile({ path: join(root, 'escaped.txt'), content: 'x' })).rejects.toMatchObject({ code: -32602 });
    expect(existsSync(join(root, 'escaped.txt'))).toBe(false);
    expect(await link.files.readTextFile({ path: join(clone, 'README.md') })).toBe('# project\n');
    await ended(helper, link);
  });

  it('answers unknown terminals as the local host does', async () => {
    const helper = startHelper(['sleep', '30']);
    const link = await helper.link;
    const terminals = link.terminals({ record: () => {}, baseEnv: {} });

    expect(() => terminals.output('term-9')).toThrow(expect.objectContaining({ code: -32002 }));
    await expect(terminals.create({ command: 'true', cwd: '/' })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/outside/) });
    await ended(helper, link);
  });

  it('ends the helper, the agent and its terminals when the desk stops the agent', async () => {
    const helper = startHelper(['sh', '-c', 'echo pid=$$ >&2; exec sleep 60']);
    const link = await helper.link;
    const agentPid = await eventually(() => helper.log.find((line) => line.startsWith('pid='))?.slice(4));
    const events: TaskEvent[] = [];
    const terminals = link.terminals({ record: (event) => events.push(event), baseEnv: {} });
    const { terminalId } = await terminals.create({ command: 'sh', args: ['-c', 'echo pid=$$; exec sleep 60'] });
    const terminalPid = await eventually(() => /pid=(\d+)/.exec(terminals.output(terminalId).output)?.[1]);

    expect(await ended(helper, link)).toBe(1);
    await link.agent.exited;
    expect(await terminals.waitForExit(terminalId)).toEqual({ exitCode: null, signal: 'SIGTERM' });
    for (const pid of [agentPid, terminalPid]) expect(() => process.kill(Number(pid), 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  it('reports an agent that cannot start as its exit', async () => {
    const helper = startHelper(['no-such-agent-program']);
    const link = await helper.link;

    expect(await link.agent.exited).toEqual({ code: 127, signal: null });
    expect(await helper.exited).toBe(127);
    expect(link.agent.recentLog()).toMatch(/cannot start the agent no-such-agent-program/);
  });

  it('exits with one clear line when the desk refuses its token', async () => {
    const helper = startHelper(SCRIPTED_AGENT_COMMAND, 'wrong-token');

    expect(await helper.exited).not.toBe(0);
    expect(helper.stderr().trim().split('\n')).toEqual([expect.stringMatching(/^desk-runner: the desk at .* refused the connection: 401/)]);
  });
});
