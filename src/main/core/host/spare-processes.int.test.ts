// Spare processes as a caller sees them: what it takes runs the launch given (its words verbatim, exactly its
// environment, in its directory), is the same process with the same pipes, and ends as the launched command ends.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createSpareProcesses, spareLaunchScript, spareLaunchText, type SpareProcesses } from './spare-processes';

const opened: SpareProcesses[] = [];
const folders: string[] = [];
afterEach(() => {
  for (const spares of opened.splice(0)) spares.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function spares(refillDelayMs = 0): SpareProcesses {
  const made = createSpareProcesses({ refillDelayMs });
  opened.push(made);
  return made;
}

/** Takes a spare once one waits (they start after the refill delay). */
async function takeWhenReady(from: SpareProcesses, launch: Parameters<SpareProcesses['take']>[0]): Promise<ChildProcessWithoutNullStreams> {
  for (let tries = 0; tries < 200; tries++) {
    const child = from.take(launch);
    if (child) return child;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no spare process started');
}

function ended(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe.skipIf(process.platform === 'win32')('spare processes', () => {
  it('run the launch given: its words verbatim, exactly its environment, in its directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spare-'));
    folders.push(dir);
    const words = ['two words', ' edges ', '$HOME `id` "q" \'s\' \\n', '-n', '', 'two\nlines\n'];
    const child = await takeWhenReady(spares(), {
      command: '/bin/sh',
      args: ['-c', 'pwd; for w in "$@"; do printf "[%s]\\n" "$w"; done; env -0 | sort -z | tr "\\0" "\\n"', 'sh', ...words],
      cwd: dir,
      env: { ONLY: 'this one', TRICKY: "a=b; $(echo no) 'q'\nsecond line", __desk: 'not ours', PATH: '/usr/bin:/bin' },
    });
    const { code, stdout } = await ended(child);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(dir);
    expect(lines.slice(1, 9).join('\n')).toBe(words.map((word) => `[${word}]`).join('\n'));
    // The shell's own additions (PWD after its cd) aside, the environment is the launch's, nothing of the desk's.
    const env = lines.slice(9).filter((line) => line !== '' && !line.startsWith('PWD=') && !line.startsWith('OLDPWD='));
    expect(env).toEqual(['ONLY=this one', 'PATH=/usr/bin:/bin', "TRICKY=a=b; $(echo no) 'q'", 'second line', '__desk=not ours']);
  });

  it('hand over the process itself: its pid, its stdin after the launch, its exit code and signal', async () => {
    const from = spares();
    const cat = await takeWhenReady(from, { command: '/bin/sh', args: ['-c', 'echo "pid $$"; cat; exit 7'], env: {} });
    const result = ended(cat);
    cat.stdin.end('line one\nline two\n');
    const { code, stdout } = await result;
    expect(code).toBe(7);
    expect(stdout).toBe(`pid ${cat.pid}\nline one\nline two\n`);

    const sleeper = await takeWhenReady(from, { command: '/bin/sleep', args: ['30'], env: {} });
    const killed = new Promise((resolve) => sleeper.on('exit', (_code, signal) => resolve(signal)));
    // Its own process group, as an agent's must be: stopped whole by the group's id.
    process.kill(-(sleeper.pid as number), 'SIGTERM');
    expect(await killed).toBe('SIGTERM');
  });

  it('give none for a launch the shell could not run as given, and none once closed', async () => {
    const from = spares();
    await takeWhenReady(from, { command: '/bin/true', args: [], env: {} }).then(ended);
    expect(from.take({ command: '/bin/echo', args: ['a\0b'], env: {} })).toBeUndefined();
    expect(from.take({ command: '-x', args: [], env: {} })).toBeUndefined();
    expect(from.take({ command: '/bin/true', args: [], env: { 'BAD NAME': 'x' } })).toBeUndefined();
    expect(from.take({ command: '/bin/true', args: [], env: { __desk_n: '0' } })).toBeUndefined();
    expect(from.take({ command: '/bin/true', args: [], env: { SHELLOPTS: 'braceexpand' } })).toBeUndefined();
    from.close();
    expect(from.take({ command: '/bin/true', args: [], env: {} })).toBeUndefined();
  });

  it('are replaced after each take, and one killed while waiting is never handed out', async () => {
    const from = spares();
    const first = await takeWhenReady(from, { command: '/bin/true', args: [], env: {} });
    await ended(first);
    // Both waiting again (one taken, one replaced): kill every spare the desk has waiting, from outside.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { execFileSync } = await import('node:child_process');
    const waitingPids = execFileSync('pgrep', ['-f', 'desk-spare', '-P', String(process.pid)], { encoding: 'utf8' }).trim().split('\n').map(Number);
    expect(waitingPids.length).toBe(2);
    for (const pid of waitingPids) process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = await takeWhenReady(from, { command: '/bin/echo', args: ['fresh'], env: {} });
    expect(waitingPids).not.toContain(next.pid);
    expect((await ended(next)).stdout).toBe('fresh\n');
  });

  it('never hand over one killed a moment before the take, before the desk saw it end', async () => {
    const from = createSpareProcesses({ refillDelayMs: 0, count: 2 });
    opened.push(from);
    await takeWhenReady(from, { command: '/bin/true', args: [], env: {} }).then(ended);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { execFileSync } = await import('node:child_process');
    const pids = execFileSync('pgrep', ['-f', 'desk-spare', '-P', String(process.pid)], { encoding: 'utf8' }).trim().split('\n').map(Number).sort((a, b) => a - b);
    expect(pids).toHaveLength(2);
    // Both killed, and the first taken at once, synchronously: the desk's loop has not run to see either end.
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    // The thread held (no turn of the loop to report their ends) until the kernel has ended them: zombies, unreaped.
    const { readFileSync } = await import('node:fs');
    const isZombie = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'latin1').replace(/^.*\) /s, '').startsWith('Z');
    const deadline = Date.now() + 5_000;
    while (!pids.every(isZombie) && Date.now() < deadline) { /* waiting without a turn of the loop */ }
    expect(pids.every(isZombie)).toBe(true);
    expect(from.take({ command: '/bin/echo', args: ['never'], env: {} })).toBeUndefined();
    // The caller spawns instead; the spares come back.
    const next = await takeWhenReady(from, { command: '/bin/echo', args: ['fresh'], env: {} });
    expect(pids).not.toContain(next.pid);
    expect((await ended(next)).stdout).toBe('fresh\n');
  });

  it('say what the shell runs, every word quoted, after a line that says how it comes', () => {
    const script = spareLaunchScript({ command: '/x', args: ['a b', "it's é"], cwd: '/w', env: { A: '1', B: undefined } });
    expect(script).toBe("export 'A=1'; cd '/w' || exit 126; exec '/x' 'a b' 'it'\\''s é'");
    expect(spareLaunchText(script as string)).toBe(`line\n${script}\n`);
    // Across lines, or long: by its length in bytes.
    const across = spareLaunchScript({ command: '/x', args: ['two\nlines'], env: {} }) as string;
    expect(spareLaunchText(across)).toBe(`${Buffer.byteLength(across)}\n${across}`);
    expect(spareLaunchText(spareLaunchScript({ command: '/x', args: ['y'.repeat(3000)], env: {} }) as string)).toMatch(/^3012\nexec /);
    expect(spareLaunchScript({ command: '', args: [], env: {} })).toBeUndefined();
    // A shell's script is run by the waiting shell itself, its arguments the positional ones (its name dropped).
    expect(spareLaunchScript({ command: '/bin/sh', args: ['-c', 'echo "$1"; exec "$@"', 'name', '-n', "it's"], env: {} }))
      .toBe("set -- '-n' 'it'\\''s'; eval 'echo \"$1\"; exec \"$@\"'");
  });

  it('run a shell script in the waiting shell itself, as `sh -c` would: its arguments, its exits, its status', async () => {
    const from = spares();
    const script = await takeWhenReady(from, { command: '/bin/sh', args: ['-c', 'printf "%s|" "$#" "$@"; [ "$1" = -n ] || exit 4; exec /bin/sh -c \'exit 9\'', 'name', '-n', 'a b', ''], env: {} });
    const first = await ended(script);
    expect(first.stdout).toBe('3|-n|a b||');
    expect(first.code).toBe(9);
    // No exec at its end: the shell ends with the status of its last command; an `exit` ends it there.
    const last = await takeWhenReady(from, { command: '/bin/sh', args: ['-c', 'true; false'], env: {} });
    expect((await ended(last)).code).toBe(1);
    const exited = await takeWhenReady(from, { command: '/bin/sh', args: ['-c', 'exit 3; echo never'], env: {} });
    expect(await ended(exited)).toMatchObject({ code: 3, stdout: '' });
    // A script the shell cannot parse fails as `sh -c` fails on it, before anything of it runs.
    const broken = await takeWhenReady(from, { command: '/bin/sh', args: ['-c', 'echo ran; if then'], env: {} });
    expect(await ended(broken)).toMatchObject({ code: 2, stdout: '' });
  });

  it('read a long launch from a file in the folder given, holding what the pipe would have carried', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spare-launch-'));
    folders.push(dir);
    const long = 'v'.repeat(3000);
    // Through env, so that the shell execs a program (a shell's script it would run itself).
    const child = await takeWhenReady(spares(), { command: '/usr/bin/env', args: ['sh', '-c', 'printf "%s %s\\n" "${#LONG}" "$1"; for fd in /proc/$$/fd/*; do readlink "$fd" || true; done', 'sh', 'one'], env: { LONG: long, PATH: '/usr/bin:/bin' }, launchDir: dir });
    const { code, stdout } = await ended(child);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('3000 one');
    // The file was read whole, and nothing of it is open in what the shell became.
    const open = stdout.split('\n').slice(1).filter(Boolean);
    expect(open.length).toBeGreaterThanOrEqual(3);
    expect(open.filter((target) => target.includes(dir))).toEqual([]);
    const files = readdirSync(dir);
    expect(files).toEqual([`spare-launch-${child.pid}.sh`]);
    expect(statSync(join(dir, files[0] as string)).mode & 0o777).toBe(0o600);
    // A short one still goes through the pipe; a folder that is gone sends the long one through the pipe too.
    const short = await takeWhenReady(spares(), { command: '/bin/echo', args: ['short'], env: {}, launchDir: dir });
    expect((await ended(short)).stdout).toBe('short\n');
    expect(readdirSync(dir)).toHaveLength(1);
    const gone = await takeWhenReady(spares(), { command: '/bin/sh', args: ['-c', 'echo "${#LONG}"'], env: { LONG: long }, launchDir: join(dir, 'gone') });
    expect((await ended(gone)).stdout).toBe('3000\n');
  });

  it('run a launch longer than a pipe carries at once, whole', async () => {
    const many = Array.from({ length: 3000 }, (_, index) => `word-${index}-${'x'.repeat(40)}`);
    const child = await takeWhenReady(spares(), { command: '/bin/sh', args: ['-c', 'printf "%s\\n" "$#" "$1" "${3000}"', 'sh', ...many], env: {} });
    expect((await ended(child)).stdout).toBe(`3000\n${many[0]}\n${many[2999]}\n`);
  });
});
