// A tiny ACP agent for tests that plays the attacker: its prompt is a JSON list of things to try from its
// own process (not through the desk's fs/* or terminals), and it writes what happened to attack-report.json
// in its working directory, which the desk then commits like any agent's work.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { agent, methods, ndJsonStream, type PromptResponse } from '@agentclientprotocol/sdk';

/** One thing to try; the report says for each whether it worked and what it got. */
export type Attack =
  | { read: string }
  | { write: string; text: string }
  | { readParentEnviron: true }
  | { readEveryEnviron: true }
  | { connect: string }
  /** An HTTP GET of an absolute URL through the proxy the sandbox names in HTTP_PROXY. */
  | { getThroughProxy: string }
  /** A plain HTTP GET of a URL, without any proxy; given up after `timeoutMs` (1.5 s). */
  | { get: string; timeoutMs?: number }
  | { exec: string }
  /** Leaves a process behind that double-forks into its own session and ignores TERM and HUP. */
  | { leaveSurvivor: string }
  | { sleep: number }
  /** An HTTP GET of `path` straight over every unix socket bound into the sandbox (found in its mount table). */
  | { getOverBoundSockets: string };

export interface AttackResult { attack: Attack; ok: boolean; output?: string; error?: string }

async function attempt(attack: Attack, cwd: string): Promise<AttackResult> {
  try {
    if ('read' in attack) return { attack, ok: true, output: readFileSync(attack.read, 'utf8').slice(0, 2000) };
    if ('write' in attack) {
      writeFileSync(attack.write, attack.text);
      return { attack, ok: true };
    }
    if ('readParentEnviron' in attack) return { attack, ok: true, output: readFileSync(`/proc/${process.ppid}/environ`, 'utf8') };
    if ('readEveryEnviron' in attack) {
      const seen: string[] = [];
      for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
        try {
          seen.push(readFileSync(`/proc/${pid}/environ`, 'utf8'));
        } catch {
          // not readable: that is the point
        }
      }
      return { attack, ok: seen.length > 0, output: seen.join('\n') };
    }
    if ('connect' in attack) return await tryConnect(attack);
    if ('getThroughProxy' in attack) return await getThroughProxy(attack);
    if ('get' in attack) return await getDirectly(attack);
    if ('exec' in attack) return { attack, ok: true, output: execFileSync('sh', ['-c', attack.exec], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
    if ('leaveSurvivor' in attack) {
      // `(… &)` forks twice, setsid leaves our session and group: the grandchild belongs to nobody we know.
      const script = `(setsid sh -c 'trap "" TERM HUP; while :; do sleep 1; done' ${attack.leaveSurvivor} &)`;
      spawn('sh', ['-c', script], { stdio: 'ignore', detached: true }).unref();
      return { attack, ok: true };
    }
    if ('getOverBoundSockets' in attack) return await getOverBoundSockets(attack);
    await new Promise((resolve) => setTimeout(resolve, attack.sleep));
    return { attack, ok: true };
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    return { attack, ok: false, error: `${failure.code ?? ''} ${failure.stderr ?? failure.message}`.trim() };
  }
}

function getThroughProxy(attack: { getThroughProxy: string }): Promise<AttackResult> {
  const proxy = process.env.HTTP_PROXY;
  if (!proxy) return Promise.resolve({ attack, ok: false, error: 'no HTTP_PROXY' });
  const { hostname, port } = new URL(proxy);
  return new Promise((resolve) => {
    const request = httpRequest({ host: hostname, port, path: attack.getThroughProxy, method: 'GET' }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      response.on('end', () => resolve({ attack, ok: response.statusCode === 200, output: `${response.statusCode} ${body}` }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ attack, ok: false, error: error.code ?? error.message }));
    request.end();
  });
}

function getDirectly(attack: { get: string; timeoutMs?: number }): Promise<AttackResult> {
  return new Promise((resolve) => {
    const request = httpRequest(attack.get, { method: 'GET', timeout: attack.timeoutMs ?? 1500 }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      response.on('end', () => resolve({ attack, ok: response.statusCode === 200, output: `${response.statusCode} ${body}` }));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ attack, ok: false, error: error.code ?? error.message }));
    request.end();
  });
}

async function getOverBoundSockets(attack: { getOverBoundSockets: string }): Promise<AttackResult> {
  const sockets = readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((line) => line.split(' ')[4] ?? '').filter((path) => path.endsWith('.sock'));
  const answers = await Promise.all(sockets.map((socketPath) => new Promise<string>((resolve) => {
    const request = httpRequest({ socketPath, path: attack.getOverBoundSockets, method: 'GET', timeout: 1500 }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      response.on('end', () => resolve(`${socketPath.split('/').pop() ?? ''} ${response.statusCode} ${body}`));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => resolve(`${socketPath.split('/').pop() ?? ''} ${error.code ?? error.message}`));
    request.end();
  })));
  return { attack, ok: answers.some((answer) => / 200 /.test(answer)), output: answers.sort().join('\n') };
}

function tryConnect(attack: { connect: string }): Promise<AttackResult> {
  const [host, port] = attack.connect.split(':');
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(port), timeout: 1500 });
    socket.once('connect', () => { socket.destroy(); resolve({ attack, ok: true }); });
    socket.once('timeout', () => { socket.destroy(); resolve({ attack, ok: false, error: 'timeout' }); });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve({ attack, ok: false, error: error.code ?? error.message }));
  });
}

const sessions = new Map<string, string>();
const app = agent({ name: 'hostile-agent' })
  .onRequest(methods.agent.initialize, () => ({ protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] }))
  .onRequest(methods.agent.session.new, ({ params }) => {
    const sessionId = `s${sessions.size + 1}`;
    sessions.set(sessionId, params.cwd);
    return { sessionId };
  })
  .onRequest(methods.agent.session.prompt, async ({ params }): Promise<PromptResponse> => {
    const cwd = sessions.get(params.sessionId) ?? process.cwd();
    const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const results: AttackResult[] = [];
    // A follow-up turn arrives inside the desk's continuation text: its list is what follows the last "Now:" line.
    const followUp = text.lastIndexOf('\nNow:\n');
    for (const attack of JSON.parse(followUp === -1 ? text : text.slice(followUp + '\nNow:\n'.length)) as Attack[]) {
      results.push(await attempt(attack, cwd));
      // Written after each step, so a run that is cancelled mid-way still tells what it did.
      writeFileSync(`${cwd}/attack-report.json`, JSON.stringify(results, null, 2));
    }
    return { stopReason: 'end_turn' };
  });

const connection = app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>));
void connection.closed.then(() => process.exit(0));
