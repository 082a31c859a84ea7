#!/usr/bin/env node
// desk-runner: runs one Assignment Desk agent inside a cluster container, which shares no disk with the desk.
//
//   node desk-runner.mjs -- <agent command> [args...]
//
// It clones the task's branch from the desk, connects to the desk over one authenticated, upgraded HTTP connection,
// starts the agent in the clone and bridges: the agent's ACP stream passes through unchanged, and the desk asks
// (on a separate control channel of the same connection) for what it does itself for a local agent — reading and
// writing files, running terminals, and at the end of a turn committing and pushing the work. The desk decides
// whether each of those is allowed; this helper only does them, and only inside the clone. The wire is described
// in src/shared/runner-link.ts of the desk.
//
// Configured by the environment, none of which the agent or its terminals see:
//   DESK_RUNNER_URL       e.g. http://127.0.0.1:4321/runner/<taskId> (the helper connects to <url>/connect)
//   DESK_RUNNER_TOKEN     the bearer token for the connection and for git
//   DESK_RUNNER_GIT_URL   what to clone (default <DESK_RUNNER_URL>/git)
//   DESK_RUNNER_WORKTREE  absolute path to clone into (the same path as the desk's worktree, so paths agree)
//   DESK_RUNNER_BRANCH    the branch to clone, and to push as HEAD:refs/heads/<branch>
//
// Plain JavaScript for a bare Node >= 18: nothing but Node's built-in modules, so a container needs only `node`
// and `git`.
import { spawn } from 'node:child_process';
import { mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

const MAX_LINE_BYTES = 16 * 1024 * 1024;
const OUTPUT_BATCH_MS = 50;
const OUTPUT_BATCH_CHARS = 64 * 1024;
const KILL_GRACE_MS = 2000;
/** How long the end of the agent's stdout (or of a terminal's output) may trail its exit. */
const OUTPUT_TRAIL_MS = 1000;
const FLUSH_LIMIT_MS = 5000;
const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;
const INTERNAL_ERROR = -32603;
const COMMIT_MESSAGE = 'desk-runner: work of this turn';

/**
 * @typedef {{ url: string, token: string, gitUrl: string, worktree: string, branch: string, command: string, args: string[] }} Config
 * @typedef {import('node:net').Socket} Duplex
 * @typedef {import('node:child_process').ChildProcessWithoutNullStreams} Child
 * @typedef {{ child: Child, exited: boolean, flush(): void }} Terminal
 */

/** An error answered to the desk with a JSON-RPC code. */
class RunnerError extends Error {
  /** @param {number} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** @param {string} message @returns {never} */
function fail(message) {
  process.stderr.write(`desk-runner: ${message}\n`);
  process.exit(2);
}

/** @param {string[]} argv @param {NodeJS.ProcessEnv} env @returns {Config} */
function readConfig(argv, env) {
  if (argv[0] !== '--' || !argv[1]) fail('usage: node desk-runner.mjs -- <agent command> [args...]');
  /** @param {string} name */
  const required = (name) => env[name] || fail(`${name} is not set`);
  const url = required('DESK_RUNNER_URL').replace(/\/+$/, '');
  const worktree = required('DESK_RUNNER_WORKTREE');
  if (!isAbsolute(worktree)) fail(`DESK_RUNNER_WORKTREE must be an absolute path, got ${worktree}`);
  return {
    url,
    token: required('DESK_RUNNER_TOKEN'),
    gitUrl: env.DESK_RUNNER_GIT_URL || `${url}/git`,
    worktree: resolve(worktree),
    branch: required('DESK_RUNNER_BRANCH'),
    command: argv[1],
    args: argv.slice(2),
  };
}

/** The container's environment without anything of ours: the agent never sees the token. */
function agentEnvironment() {
  /** @type {Record<string, string>} */
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('DESK_RUNNER_') && value !== undefined) env[name] = value;
  }
  return env;
}

// ---- git ---------------------------------------------------------------------------------------------------------

/** Git's environment with the token as an HTTP header: given through the environment, never on a command line. */
function gitEnvironment(/** @type {Config} */ config) {
  /** @type {Record<string, string>} */
  const env = { ...agentEnvironment(), GIT_TERMINAL_PROMPT: '0' };
  const index = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10) || 0;
  env.GIT_CONFIG_COUNT = String(index + 1);
  env[`GIT_CONFIG_KEY_${index}`] = 'http.extraHeader';
  env[`GIT_CONFIG_VALUE_${index}`] = `Authorization: Bearer ${config.token}`;
  return env;
}

/**
 * @param {string[]} args @param {{ cwd?: string, env: Record<string, string> }} options
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function runGit(args, options) {
  return new Promise((done) => {
    const child = spawn('git', args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', (error) => done({ code: null, stdout, stderr: `${stderr}${error.message}` }));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** Git's own words, without its progress chatter. */
const gitReason = (/** @type {string} */ stderr) =>
  stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('Cloning into')).join(' ') || 'git failed';

async function cloneTask(/** @type {Config} */ config) {
  const env = gitEnvironment(config);
  const cloned = await runGit(['clone', '--quiet', '--branch', config.branch, '--single-branch', config.gitUrl, config.worktree], { env });
  if (cloned.code !== 0) fail(`cannot clone branch ${config.branch} from the desk: ${gitReason(cloned.stderr)}`);
  for (const [key, value] of [['user.name', 'desk-runner'], ['user.email', 'desk-runner@assignment-desk.invalid']]) {
    const set = await runGit(['config', key, value], { cwd: config.worktree, env });
    if (set.code !== 0) fail(`cannot configure the clone: ${gitReason(set.stderr)}`);
  }
}

/** Commits whatever the turn changed (if anything) and pushes HEAD to the task's branch; answers the pushed commit. */
async function pushWork(/** @type {Config} */ config) {
  const env = gitEnvironment(config);
  const git = async (/** @type {string[]} */ args, /** @type {number[]} */ okCodes = [0]) => {
    const ran = await runGit(args, { cwd: config.worktree, env });
    if (ran.code === null || !okCodes.includes(ran.code)) throw new RunnerError(INTERNAL_ERROR, `git ${args[0]} failed: ${gitReason(ran.stderr)}`);
    return ran;
  };
  await git(['add', '-A']);
  const staged = await git(['diff', '--cached', '--quiet'], [0, 1]);
  if (staged.code === 1) await git(['commit', '--quiet', '--no-verify', '-m', COMMIT_MESSAGE]);
  await git(['push', '--quiet', 'origin', `HEAD:refs/heads/${config.branch}`]);
  const head = await git(['rev-parse', 'HEAD']);
  return { commit: head.stdout.trim() };
}

// ---- files -------------------------------------------------------------------------------------------------------

/** @param {string} root @param {string} path */
const within = (root, path) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/** The real path of `path`, or of its nearest existing ancestor plus the rest, so a symlink cannot lead outside. */
async function realTarget(/** @type {string} */ path) {
  let existing = path;
  /** @type {string[]} */
  const rest = [];
  for (;;) {
    try {
      return resolve(await realpath(existing), ...rest.reverse());
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ENOENT') throw error;
      const parent = dirname(existing);
      if (parent === existing) return path;
      rest.push(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      existing = parent;
    }
  }
}

/** @param {string} worktree */
function confinedFiles(worktree) {
  const rootPromise = realpath(worktree);
  /** @param {unknown} path @returns {Promise<string>} */
  const confine = async (path) => {
    if (typeof path !== 'string' || path === '') throw new RunnerError(INVALID_PARAMS, 'path must be a non-empty string');
    const [root, target] = await Promise.all([rootPromise, realTarget(resolve(worktree, path))]);
    if (!within(root, target)) throw new RunnerError(INVALID_PARAMS, `Access denied: ${path} is outside the task's worktree`);
    return target;
  };
  return {
    confine,
    /** A directory inside the clone to run a terminal in; none means the clone itself. */
    async directory(/** @type {unknown} */ cwd) {
      if (cwd !== null && cwd !== undefined && typeof cwd !== 'string') throw new RunnerError(INVALID_PARAMS, 'cwd must be a string or null');
      const wanted = resolve(worktree, cwd ?? '.');
      let real;
      try {
        real = await realpath(wanted);
      } catch {
        throw new RunnerError(INVALID_PARAMS, `Terminal cwd ${cwd} does not exist`);
      }
      if (!within(await rootPromise, real)) throw new RunnerError(INVALID_PARAMS, `Terminal cwd ${cwd} is outside the task's worktree`);
      if (!(await stat(real)).isDirectory()) throw new RunnerError(INVALID_PARAMS, `Terminal cwd ${cwd} is not a directory`);
      return real;
    },
    /** @param {Record<string, unknown>} params */
    async read(params) {
      const line = positive(params.line, 'line');
      const limit = positive(params.limit, 'limit');
      const text = await readFile(await confine(params.path), 'utf8');
      if (line === undefined && limit === undefined) return { content: text };
      const lines = text.split('\n');
      const start = (line ?? 1) - 1;
      return { content: lines.slice(start, limit === undefined ? undefined : start + limit).join('\n') };
    },
    /** @param {Record<string, unknown>} params */
    async write(params) {
      if (typeof params.content !== 'string') throw new RunnerError(INVALID_PARAMS, 'content must be a string');
      const target = await confine(params.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, params.content, 'utf8');
      return {};
    },
  };
}

/** @param {unknown} value @param {string} key @returns {number | undefined} */
function positive(value, key) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new RunnerError(INVALID_PARAMS, `${key} must be a positive integer`);
  return value;
}

// ---- processes ---------------------------------------------------------------------------------------------------

/** Signals the process group `pid` leads (each agent and terminal leads its own); false once none of it is left. */
function signalGroup(/** @type {number | undefined} */ pid, /** @type {NodeJS.Signals | 0} */ signal) {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the group, SIGKILL to what is left after the grace; resolves when the group is gone (or killed). */
function endGroup(/** @type {number | undefined} */ pid) {
  if (!signalGroup(pid, 'SIGTERM')) return Promise.resolve();
  return new Promise((done) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (!signalGroup(pid, 0)) {
        clearInterval(poll);
        done(undefined);
      } else if (Date.now() - started >= KILL_GRACE_MS) {
        clearInterval(poll);
        signalGroup(pid, 'SIGKILL');
        done(undefined);
      }
    }, 50);
  });
}

/**
 * Splits a byte stream into lines (without their `\n`); a line longer than MAX_LINE_BYTES is dropped whole.
 * @param {(line: string) => void} onLine @param {() => void} onOverlong
 */
function lineSplitter(onLine, onOverlong) {
  /** @type {Buffer[]} */
  let parts = [];
  let size = 0;
  let discarding = false;
  return (/** @type {Buffer} */ chunk) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      if (!discarding) {
        if (size + piece.length > MAX_LINE_BYTES) onOverlong();
        else onLine(Buffer.concat([...parts, piece]).toString('utf8'));
      }
      parts = [];
      size = 0;
      discarding = false;
      start = newline + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0 || discarding) return;
    if (size + rest.length > MAX_LINE_BYTES) {
      parts = [];
      size = 0;
      discarding = true;
      onOverlong();
    } else {
      parts.push(rest);
      size += rest.length;
    }
  };
}

// ---- the connection ----------------------------------------------------------------------------------------------

/** @param {Config} config @returns {Promise<{ socket: Duplex, head: Buffer }>} */
function connect(config) {
  const url = new URL(`${config.url}/connect`);
  const where = `${url.origin}${url.pathname}`;
  return new Promise((done, refuse) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'GET',
      headers: { Connection: 'Upgrade', Upgrade: 'desk-runner', Authorization: `Bearer ${config.token}` },
    });
    request.on('upgrade', (response, socket, head) => {
      if (String(response.headers.upgrade).toLowerCase() !== 'desk-runner') {
        socket.destroy();
        refuse(new Error(`the desk at ${where} answered with an unknown protocol (${response.headers.upgrade})`));
      } else done({ socket, head });
    });
    request.on('response', (response) => {
      response.resume();
      refuse(new Error(`the desk at ${where} refused the connection: ${response.statusCode} ${response.statusMessage ?? ''}`.trim()));
    });
    request.on('error', (error) => refuse(new Error(`cannot reach the desk at ${where}: ${error.message}`)));
    request.end();
  });
}

/** Runs the agent and serves the desk until one of them ends; then this process exits. */
function bridge(/** @type {Config} */ config, /** @type {Duplex} */ socket, /** @type {Buffer} */ head) {
  const env = agentEnvironment();
  const files = confinedFiles(config.worktree);
  /** @type {Map<string, Terminal>} */
  const terminals = new Map();
  /** Streams paused until the connection drains, so a flood waits in the pipe instead of in our memory. */
  const paused = new Set();
  let ending = false;
  /** @type {Promise<{ commit: string }> | undefined} */
  let pushing;

  const send = (/** @type {string} */ line) => (socket.writable ? socket.write(`${line}\n`) : true);
  const sendControl = (/** @type {object} */ message) => send(`r${JSON.stringify(message)}`);
  const notify = (/** @type {string} */ method, /** @type {object} */ params) => sendControl({ method, params });
  const holdUntilDrained = (/** @type {boolean} */ written, /** @type {import('node:stream').Readable} */ stream) => {
    if (written || paused.has(stream)) return;
    paused.add(stream);
    stream.pause();
  };
  socket.on('drain', () => {
    for (const stream of paused) stream.resume();
    paused.clear();
  });

  const agent = spawn(config.command, config.args, { cwd: config.worktree, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  agent.stdin.on('error', () => {});
  const stdoutEnded = new Promise((done) => agent.stdout.once('close', done));
  const fromAgent = lineSplitter(
    (line) => holdUntilDrained(send(`a${line}`), agent.stdout),
    () => notify('log', { line: `desk-runner: dropped an agent output line longer than ${MAX_LINE_BYTES} bytes` }),
  );
  agent.stdout.on('data', fromAgent);
  const logged = lineSplitter((line) => notify('log', { line }), () => {});
  agent.stderr.on('data', logged);

  agent.on('error', (error) => {
    notify('log', { line: `desk-runner: cannot start the agent ${config.command}: ${error.message}` });
    void finish(127, null);
  });
  agent.on('exit', (code, signal) => {
    const trail = new Promise((done) => setTimeout(done, OUTPUT_TRAIL_MS).unref());
    void Promise.race([stdoutEnded, trail]).then(() => finish(code, signal));
  });

  /** The agent ended: tell the desk, end what it left behind, close the connection once it is written, exit. */
  async function finish(/** @type {number | null} */ code, /** @type {string | null} */ signal) {
    if (ending) return;
    ending = true;
    notify('exit', { code, signal });
    await Promise.all([endGroup(agent.pid), ...[...terminals.values()].map((t) => endGroup(t.child.pid))]);
    const flushed = new Promise((done) => {
      socket.once('close', done);
      socket.once('error', done);
      socket.end();
    });
    await Promise.race([flushed, new Promise((done) => setTimeout(done, FLUSH_LIMIT_MS).unref())]);
    process.exit(code ?? 1);
  }

  /** The desk went away (or this container is being stopped): end the agent and its terminals, exit 1. */
  async function abandon() {
    if (ending) return;
    ending = true;
    await Promise.all([endGroup(agent.pid), ...[...terminals.values()].map((t) => endGroup(t.child.pid))]);
    process.exit(1);
  }
  // The desk ending its side (its `stop()`) means the same as a lost connection.
  socket.on('end', () => void abandon());
  socket.on('close', () => void abandon());
  socket.on('error', () => void abandon());
  process.on('SIGTERM', () => { socket.destroy(); void abandon(); });

  /** @type {Record<string, (params: Record<string, unknown>) => Promise<object>>} */
  const handlers = {
    'files/read': (params) => files.read(params),
    'files/write': (params) => files.write(params),
    'terminal/create': async (params) => {
      const terminalId = params.terminalId;
      if (typeof terminalId !== 'string' || terminalId === '') throw new RunnerError(INVALID_PARAMS, 'terminalId must be a string');
      if (terminals.has(terminalId)) throw new RunnerError(INVALID_PARAMS, `Terminal ${terminalId} exists already`);
      if (typeof params.command !== 'string' || params.command === '') throw new RunnerError(INVALID_PARAMS, 'command must be a string');
      const args = Array.isArray(params.args) ? params.args.map(String) : [];
      const cwd = await files.directory(params.cwd);
      const terminalEnv = { ...env };
      for (const entry of Array.isArray(params.env) ? params.env : []) {
        if (entry && typeof entry.name === 'string' && typeof entry.value === 'string' && !entry.name.startsWith('DESK_RUNNER_')) terminalEnv[entry.name] = entry.value;
      }
      const terminal = await startTerminal(terminalId, params.command, args, cwd, terminalEnv);
      terminals.set(terminalId, terminal);
      return { cwd };
    },
    'terminal/kill': async (params) => {
      void endGroup(findTerminal(params.terminalId).child.pid);
      return {};
    },
    'terminal/write': async (params) => {
      const terminal = findTerminal(params.terminalId);
      if (typeof params.data !== 'string') throw new RunnerError(INVALID_PARAMS, 'data must be a string');
      if (!terminal.exited) terminal.child.stdin.write(params.data);
      return {};
    },
    'terminal/release': async (params) => {
      const terminal = findTerminal(params.terminalId);
      terminals.delete(/** @type {string} */ (params.terminalId));
      void endGroup(terminal.child.pid);
      return {};
    },
    // One push at a time: a second asks again after the first, so it pushes whatever came since.
    push: async () => {
      const previous = pushing ?? Promise.resolve();
      const next = previous.catch(() => {}).then(() => pushWork(config));
      pushing = next;
      return next;
    },
  };

  const findTerminal = (/** @type {unknown} */ terminalId) => {
    const terminal = typeof terminalId === 'string' ? terminals.get(terminalId) : undefined;
    if (!terminal) throw new RunnerError(INVALID_PARAMS, `Unknown terminal ${terminalId}`);
    return terminal;
  };

  /** @returns {Promise<Terminal>} */
  function startTerminal(/** @type {string} */ terminalId, /** @type {string} */ command, /** @type {string[]} */ args, /** @type {string} */ cwd, /** @type {Record<string, string>} */ terminalEnv) {
    const child = spawn(command, args, { cwd, env: terminalEnv, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    child.stdin.on('error', () => {});
    /** @type {string[]} */
    let pending = [];
    let pendingLength = 0;
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      if (pendingLength === 0) return;
      const data = pending.join('');
      pending = [];
      pendingLength = 0;
      const written = notify('terminal/output', { terminalId, data });
      holdUntilDrained(written, child.stdout);
      holdUntilDrained(written, child.stderr);
    };
    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder('utf8');
      const take = (/** @type {string} */ text) => {
        if (text === '') return;
        pending.push(text);
        pendingLength += text.length;
        if (pendingLength >= OUTPUT_BATCH_CHARS) flush();
        else timer ??= setTimeout(flush, OUTPUT_BATCH_MS);
      };
      stream.on('data', (/** @type {Buffer} */ chunk) => take(decoder.write(chunk)));
      stream.on('end', () => take(decoder.end()));
    }
    /** @type {Terminal} */
    const terminal = { child, exited: false, flush };
    let reported = false;
    const report = (/** @type {number | null} */ exitCode, /** @type {string | null} */ signal) => {
      if (reported) return;
      reported = true;
      terminal.exited = true;
      flush();
      notify('terminal/exit', { terminalId, exitCode, signal });
    };
    // `close` comes once all output is read; a background process still holding the pipes must not hold the exit.
    child.on('close', (code, signal) => report(code, signal));
    child.on('exit', (code, signal) => {
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        report(code, signal);
      }, OUTPUT_TRAIL_MS).unref();
    });
    return new Promise((done, refuse) => {
      child.once('spawn', () => done(terminal));
      child.once('error', (error) => {
        if (child.pid === undefined) refuse(new RunnerError(INTERNAL_ERROR, `Cannot run ${command}: ${error.message}`));
      });
    });
  }

  async function serve(/** @type {unknown} */ message) {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
    const { id, method, params } = /** @type {Record<string, unknown>} */ (message);
    if (typeof id !== 'number' || typeof method !== 'string') return;
    try {
      const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
      if (!handler) throw new RunnerError(METHOD_NOT_FOUND, `Unknown method ${method}`);
      const args = typeof params === 'object' && params !== null && !Array.isArray(params) ? /** @type {Record<string, unknown>} */ (params) : {};
      sendControl({ id, result: await handler(args) });
    } catch (error) {
      const code = error instanceof RunnerError ? error.code : INTERNAL_ERROR;
      sendControl({ id, error: { code, message: error instanceof Error ? error.message : String(error) } });
    }
  }

  const fromDesk = lineSplitter((line) => {
    if (line.startsWith('a')) agent.stdin.write(`${line.slice(1)}\n`);
    else if (line.startsWith('r')) {
      let message;
      try {
        message = JSON.parse(line.slice(1));
      } catch {
        return;
      }
      void serve(message);
    }
  }, () => notify('log', { line: `desk-runner: dropped a line from the desk longer than ${MAX_LINE_BYTES} bytes` }));
  socket.setNoDelay(true);
  if (head.length > 0) fromDesk(head);
  socket.on('data', fromDesk);
}

async function main() {
  const config = readConfig(process.argv.slice(2), process.env);
  await cloneTask(config);
  let connection;
  try {
    connection = await connect(config);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  bridge(config, connection.socket, connection.head);
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
