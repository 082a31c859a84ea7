// Terminals as an agent uses them, with real pseudo-terminals, real processes and a temp worktree.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TaskEvent } from '../../../shared/events';
import { JsonRpcError } from '../../../shared/json-rpc-peer';
import { processGroupAlive } from './process-tree';
import { createTerminalHost, type TerminalHost } from './terminal-host';

let root: string;
let worktree: string;
let outside: string;
let hosts: TerminalHost[];

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'terminal-host-')));
  worktree = join(root, 'worktree');
  outside = join(root, 'outside');
  mkdirSync(worktree);
  mkdirSync(outside);
  hosts = [];
});

afterEach(async () => {
  await Promise.all(hosts.map((host) => host.disposeAll()));
  rmSync(root, { recursive: true, force: true });
});

function makeHost(overrides: { baseEnv?: Record<string, string>; outputBatchMs?: number } = {}) {
  const events: TaskEvent[] = [];
  const watchers = new Set<() => void>();
  const host = createTerminalHost({
    worktree,
    baseEnv: overrides.baseEnv ?? { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    record: (event) => {
      events.push(event);
      for (const watch of watchers) watch();
    },
    ...(overrides.outputBatchMs === undefined ? {} : { outputBatchMs: overrides.outputBatchMs }),
  });
  hosts.push(host);
  /** Resolves once `check` holds, checking now and after each event the host records (output comes as events). */
  const recorded = (check: () => boolean) => new Promise<void>((resolve) => {
    const watch = () => {
      if (!check()) return;
      watchers.delete(watch);
      resolve();
    };
    watchers.add(watch);
    watch();
  });
  return { host, events, recorded };
}

/**
 * Waits until the process group is gone. A polled condition: the group's processes are not the test's
 * children (the host spawned the leader, the leader the rest), so no exit event reaches the test.
 */
async function groupEnds(pid: number): Promise<void> {
  await vi.waitFor(() => expect(processGroupAlive(pid)).toBe(false), { timeout: 5000, interval: 20 });
}

/** Starts a shell script that prints a pid on its first line, and returns that pid once printed. */
async function startPrintingPid({ host, recorded }: ReturnType<typeof makeHost>, script: string): Promise<{ terminalId: string; pid: number }> {
  const { terminalId } = await host.create({ command: 'sh', args: ['-c', script] });
  await recorded(() => /^\d+\r?\n/.test(host.output(terminalId).output));
  return { terminalId, pid: Number(/^(\d+)/.exec(host.output(terminalId).output)?.[1]) };
}

function rpcError(action: () => unknown): JsonRpcError {
  try {
    action();
  } catch (error) {
    if (error instanceof JsonRpcError) return error;
    throw error;
  }
  throw new Error('expected a JSON-RPC error');
}

describe('terminal host: running commands', () => {
  it('runs a command and returns what it wrote to stdout and stderr, with exit code 0', async () => {
    const { host } = makeHost();
    const { terminalId } = await host.create({ command: 'sh', args: ['-c', 'echo hello; echo err >&2'] });
    expect(await host.waitForExit(terminalId)).toEqual({ exitCode: 0, signal: null });
    const result = host.output(terminalId);
    expect(result.output).toContain('hello');
    expect(result.output).toContain('err');
    expect(result).toMatchObject({ truncated: false, exitStatus: { exitCode: 0, signal: null } });
  });

  it('runs a whole shell line sent as the command without arguments, as claude-code-acp sends its Bash tool', async () => {
    const { host } = makeHost();
    const { terminalId } = await host.create({ command: 'echo one && echo two | tr a-z A-Z' });
    expect(await host.waitForExit(terminalId)).toEqual({ exitCode: 0, signal: null });
    expect(host.output(terminalId).output).toMatch(/one\r?\nTWO/);
  });

  it('reports the exit code the command ended with', async () => {
    const { host } = makeHost();
    const { terminalId } = await host.create({ command: 'sh', args: ['-c', 'exit 3'] });
    expect(await host.waitForExit(terminalId)).toEqual({ exitCode: 3, signal: null });
    expect(await host.waitForExit(terminalId)).toEqual({ exitCode: 3, signal: null });
  });

  it('reports no exit status while the command still runs', async () => {
    const { host } = makeHost();
    const { terminalId } = await host.create({ command: 'sleep', args: ['100'] });
    expect(host.output(terminalId).exitStatus).toBeNull();
  });

  it('keeps only the tail of the output within the byte limit and marks it truncated', async () => {
    const { host } = makeHost();
    const { terminalId } = await host.create({ command: 'printf', args: ['0123456789abcdefghij'], outputByteLimit: 5 });
    await host.waitForExit(terminalId);
    expect(host.output(terminalId)).toMatchObject({ output: 'fghij', truncated: true });
  });

  it('never returns a broken character when the limit falls inside a multi-byte one', async () => {
    const { host } = makeHost();
    for (const limit of [1, 2, 3, 4, 5, 7]) {
      const { terminalId } = await host.create({ command: 'printf', args: ['€😀€😀'], outputByteLimit: limit });
      await host.waitForExit(terminalId);
      const { output, truncated } = host.output(terminalId);
      expect(truncated).toBe(true);
      expect(Buffer.byteLength(output)).toBeLessThanOrEqual(limit);
      expect('€😀€😀'.endsWith(output)).toBe(true);
      expect(output).not.toContain('\uFFFD');
    }
  });

  it('passes the request env on top of the base env, and nothing from the desk outside it', async () => {
    process.env.TERMINAL_HOST_TEST_SECRET = 'leaked';
    try {
      const { host } = makeHost();
      const { terminalId } = await host.create({
        command: 'sh',
        args: ['-c', 'echo "greeting=$GREETING secret=${TERMINAL_HOST_TEST_SECRET:-unset}"'],
        env: [{ name: 'GREETING', value: 'hi there' }],
      });
      await host.waitForExit(terminalId);
      expect(host.output(terminalId).output).toContain('greeting=hi there secret=unset');
    } finally {
      delete process.env.TERMINAL_HOST_TEST_SECRET;
    }
  });

  it('keeps the whole output of fast commands that print more than the kernel buffers at once', async () => {
    const { host } = makeHost();
    const script = 'i=0; while [ $i -lt 2000 ]; do echo line $i; i=$((i+1)); done';
    const runs = await Promise.all(Array.from({ length: 8 }, () => host.create({ command: 'sh', args: ['-c', script] })));
    for (const { terminalId } of runs) {
      await host.waitForExit(terminalId);
      expect(host.output(terminalId).output).toMatch(/line 1999\r?\n$/);
    }
  });

  it('refuses a negative output limit with an invalid-params error', async () => {
    const { host } = makeHost();
    await expect(host.create({ command: 'true', outputByteLimit: -1 })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('terminal host: where commands run', () => {
  it('runs in the worktree when no cwd is given', async () => {
    const { host, events } = makeHost();
    const { terminalId } = await host.create({ command: 'pwd' });
    await host.waitForExit(terminalId);
    expect(host.output(terminalId).output.trim()).toBe(worktree);
    expect(events[0]).toMatchObject({ type: 'terminal-started', cwd: worktree });
  });

  it('takes a relative cwd against the worktree', async () => {
    mkdirSync(join(worktree, 'sub'));
    const { host } = makeHost();
    const { terminalId } = await host.create({ command: 'pwd', cwd: 'sub' });
    await host.waitForExit(terminalId);
    expect(host.output(terminalId).output.trim()).toBe(join(worktree, 'sub'));
  });

  it('refuses a cwd outside the worktree', async () => {
    const { host, events } = makeHost();
    await expect(host.create({ command: 'pwd', cwd: outside })).rejects.toMatchObject({
      code: -32602, message: expect.stringContaining("outside the task's worktree"),
    });
    await expect(host.create({ command: 'pwd', cwd: '../outside' })).rejects.toMatchObject({ code: -32602 });
    expect(events).toEqual([]);
  });

  it('refuses a cwd that leads outside through a symlink inside the worktree', async () => {
    symlinkSync(outside, join(worktree, 'escape'));
    const { host } = makeHost();
    await expect(host.create({ command: 'pwd', cwd: 'escape' })).rejects.toMatchObject({
      code: -32602, message: expect.stringContaining("outside the task's worktree"),
    });
    await expect(host.create({ command: 'pwd', cwd: join(worktree, 'escape') })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('terminal host: ending commands', () => {
  it('kills a long-running command and reports the signal', async () => {
    const made = makeHost();
    const { host } = made;
    const { terminalId, pid } = await startPrintingPid(made, 'echo $$; exec sleep 100');
    host.kill(terminalId);
    expect(await host.waitForExit(terminalId)).toEqual({ exitCode: null, signal: 'SIGTERM' });
    await groupEnds(pid);
    expect(host.output(terminalId).exitStatus).toEqual({ exitCode: null, signal: 'SIGTERM' });
  });

  it('kills the grandchildren of the command too', async () => {
    const made = makeHost();
    const { host } = made;
    const { terminalId, pid } = await startPrintingPid(made, 'echo $$; sleep 100 & sleep 100');
    expect(processGroupAlive(pid)).toBe(true);
    host.kill(terminalId);
    await host.waitForExit(terminalId);
    await groupEnds(pid);
    expect(processGroupAlive(pid)).toBe(false);
  });

  it('falls back to SIGKILL for a command that ignores SIGTERM', async () => {
    const made = makeHost();
    const { host } = made;
    const { terminalId, pid } = await startPrintingPid(made, 'trap "" TERM; echo $$; sleep 100');
    host.kill(terminalId);
    expect(await host.waitForExit(terminalId)).toEqual({ exitCode: null, signal: 'SIGKILL' });
    await groupEnds(pid);
  });

  it('ends what an exited command left running in the background when killed', async () => {
    const made = makeHost();
    const { host } = made;
    // Ignoring SIGHUP keeps the background sleep alive when the shell, the session leader, exits.
    const { terminalId, pid } = await startPrintingPid(made, 'trap "" HUP; echo $$; sleep 100 &');
    await host.waitForExit(terminalId);
    expect(processGroupAlive(pid)).toBe(true);
    host.kill(terminalId);
    await groupEnds(pid);
  });

  it('forgets a released terminal, so later calls with its id fail', async () => {
    const made = makeHost();
    const { host } = made;
    const { terminalId, pid } = await startPrintingPid(made, 'echo $$; exec sleep 100');
    host.release(terminalId);
    const error = rpcError(() => host.output(terminalId));
    expect(error).toMatchObject({ code: -32002, message: expect.stringContaining(`Unknown terminal ${terminalId}`) });
    expect(rpcError(() => host.kill(terminalId)).code).toBe(-32002);
    await expect(host.waitForExit(terminalId)).rejects.toMatchObject({ code: -32002 });
    await groupEnds(pid);
  });

  it('ends every terminal when disposed of', async () => {
    const made = makeHost();
    const { host } = made;
    const first = await startPrintingPid(made, 'echo $$; exec sleep 100');
    const second = await startPrintingPid(made, 'echo $$; sleep 100 & sleep 100');
    await host.disposeAll();
    expect(processGroupAlive(first.pid)).toBe(false);
    expect(processGroupAlive(second.pid)).toBe(false);
    expect(rpcError(() => host.output(first.terminalId)).code).toBe(-32002);
  });

  it('fails with an unknown-terminal error for an id it never gave out', () => {
    const { host } = makeHost();
    expect(rpcError(() => host.output('term-404'))).toMatchObject({ code: -32002, message: expect.stringContaining('Unknown terminal term-404') });
  });
});

describe('terminal host: events for the UI', () => {
  it('records started, then output, then exited, and the output events add up to the output', async () => {
    const { host, events } = makeHost({ outputBatchMs: 5 });
    const { terminalId } = await host.create({ command: 'sh', args: ['-c', 'echo one; sleep 0.1; echo two'] });
    await host.waitForExit(terminalId);
    const mine = events.filter((event) => 'terminalId' in event && event.terminalId === terminalId);
    expect(mine[0]).toEqual({ type: 'terminal-started', terminalId, command: 'sh', args: ['-c', 'echo one; sleep 0.1; echo two'], cwd: worktree });
    expect(mine.at(-1)).toEqual({ type: 'terminal-exited', terminalId, exitCode: 0, signal: null });
    const middle = mine.slice(1, -1);
    expect(middle.length).toBeGreaterThanOrEqual(2);
    expect(middle.every((event) => event.type === 'terminal-output')).toBe(true);
    const streamed = middle.map((event) => (event.type === 'terminal-output' ? event.data : '')).join('');
    expect(streamed).toBe(host.output(terminalId).output);
  });

  it('gathers a flood of output into few events', async () => {
    const { host, events } = makeHost({ outputBatchMs: 1000 });
    const { terminalId } = await host.create({ command: 'sh', args: ['-c', 'i=0; while [ $i -lt 500 ]; do echo line $i; i=$((i+1)); done'] });
    await host.waitForExit(terminalId);
    const outputs = events.filter((event) => event.type === 'terminal-output');
    expect(outputs.length).toBeLessThanOrEqual(2);
    expect(host.output(terminalId).output).toContain('line 499');
  });

  it('numbers terminals so each has its own id', async () => {
    const { host } = makeHost();
    const first = await host.create({ command: 'true' });
    const second = await host.create({ command: 'true' });
    expect(first.terminalId).not.toBe(second.terminalId);
  });
});
