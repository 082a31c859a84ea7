// The sandboxed scripted agent's start as the desk launches it, against a bare Node answering the same line in the same
// sandbox: bubblewrap with a task's kind of layout (no network, the worktree writable, a temp dir as /tmp, the MCP
// relay's socket), the network bridge's preload with the relay's flags, the built agent. Rounds alternate the two and
// their order. Each round runs each twice: once under `perf stat` for the CPU of the whole sandbox (bubblewrap
// included) from spawn to exit, once bare for the time from spawn to the `initialize` answer.
// Usage: npm run build && npx tsx bench/sandboxed-agent-start.ts [rounds]. Needs bwrap and perf.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { agentEnvironment, bwrapArguments, createNetworkBridge, scriptedAgentSpec, type SandboxLayout } from '../src/main/core/testing';
import { APP_BUILD_DIR } from './built-desk';

const rounds = Number(process.argv[2] ?? 20);
const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true }, clientInfo: { name: 'assignment-desk', version: '0' } } })}\n`;
const BARE_ANSWER = `process.stdin.once('data', () => process.stdout.write('{"jsonrpc":"2.0","id":0,"result":{}}\\n'))`;

interface Launch { label: string; command: string; args: string[]; env: Record<string, string> }
interface Sample { cpuMs: number; answerMs: number }

// Where the bench's folders are: in the home, as an installed desk keeps its data (see pipeline.ts), and the socket
// on a memory file system, as the desk's run folders are.
const root = mkdtempSync(join(homedir(), '.cache', 'agent-start-'));
const worktree = join(root, 'worktree');
const tmp = join(root, 'tmp');
const socketDir = mkdtempSync('/dev/shm/agent-start-');
const socketPath = join(socketDir, 'mcp.sock');
const relay = createServer((socket) => socket.end());

function launches(): Launch[] {
  const bridge = createNetworkBridge({ nodePath: process.execPath, preloadEntry: join(APP_BUILD_DIR, 'sandbox-net-preload.cjs') });
  const agent = scriptedAgentSpec(join(APP_BUILD_DIR, 'scripted-agent.cjs'));
  const launch = bridge.launch(agent.command, agent.args, ['--relay', `4000=${socketPath}`], process.env.PATH);
  return [
    { label: 'bare node answering', command: process.execPath, args: ['-e', BARE_ANSWER], env: {} },
    { label: `scripted agent (${launch.kind})`, command: launch.command, args: launch.args, env: launch.env ?? {} },
  ];
}

/** One start in the sandbox: the answer's time from spawn, and (under perf) the sandbox's CPU from spawn to exit. */
async function once(launch: Launch, measureCpu: boolean): Promise<Sample> {
  const layout: SandboxLayout = {
    bwrap: 'bwrap', cwd: worktree, network: 'none', newSession: true, env: launch.env,
    mounts: [{ kind: 'scratch-dir', path: '/tmp', source: tmp }, { kind: 'hide-dir', path: homedir() }, { kind: 'writable', path: worktree }, { kind: 'writable', path: socketPath }],
  };
  const sandbox = ['bwrap', ...bwrapArguments(layout, launch.command, launch.args)];
  const perfOut = join(root, 'perf.csv');
  const command = measureCpu ? ['perf', 'stat', '-x,', '-e', 'task-clock', '-o', perfOut, '--', ...sandbox] : sandbox;
  // What the desk gives an agent (no NODE_EXTRA_CA_CERTS, which costs a Node start ~35 ms of CPU).
  const env = { ...agentEnvironment(process.env, { envAllowlist: [], env: {} }), TMPDIR: tmp };
  const started = performance.now();
  const child = spawn(command[0] ?? '', command.slice(1), { env, stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.write(INITIALIZE);
  let output = '';
  const answerMs = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(performance.now() - started);
    });
    child.on('exit', (code) => reject(new Error(`${launch.label} ended (${code}) before answering: ${output}`)));
  });
  if (!output.includes('"result"')) throw new Error(`${launch.label} answered with an error: ${output}`);
  child.stdin.end();
  await new Promise((resolve) => child.on('close', resolve));
  if (!measureCpu) return { cpuMs: 0, answerMs };
  const line = readFileSync(perfOut, 'utf8').split('\n').find((text) => text.includes('task-clock'));
  return { cpuMs: Number(line?.split(',')[0]), answerMs };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;

async function main(): Promise<void> {
  mkdirSync(worktree);
  mkdirSync(tmp);
  await new Promise<void>((resolve) => relay.listen(socketPath, resolve));
  const all = launches();
  const samples = all.map(() => ({ cpu: [] as number[], answer: [] as number[] }));
  for (const launch of all) await once(launch, true); // warm the page cache
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? all.map((_, i) => i) : all.map((_, i) => all.length - 1 - i);
    for (const i of order) {
      const launch = all[i] as Launch;
      samples[i]?.cpu.push((await once(launch, true)).cpuMs);
      samples[i]?.answer.push((await once(launch, false)).answerMs);
    }
  }
  all.forEach((launch, i) => {
    const { cpu, answer } = samples[i] ?? { cpu: [], answer: [] };
    console.log(`${launch.label.padEnd(36)} CPU median ${median(cpu).toFixed(1)} ms (least ${Math.min(...cpu).toFixed(1)}), initialize answered median ${median(answer).toFixed(1)} ms (least ${Math.min(...answer).toFixed(1)}), ${cpu.length} rounds`);
  });
}

try {
  await main();
} finally {
  relay.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(socketDir, { recursive: true, force: true });
}
