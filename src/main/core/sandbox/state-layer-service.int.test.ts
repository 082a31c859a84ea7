// The state layers' service on real files, both ways it can work: overlays mounted in a namespace of their own (where
// this machine allows it) and the copy that stands in where it does not. What runs inside is a plain `sh` entered the
// way the sandbox enters it.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStateLayers, type OpenStateLayer } from './state-layers';
import { findNamespaceTools } from './state-namespace';

const tools = findNamespaceTools(process.env.PATH ?? '');

/** Runs a shell command as the task's processes run: entered into the layer's namespace (overlay mode). */
function inTask(layer: OpenStateLayer, script: string): string {
  const { command, args } = layer.enter('sh', ['-c', script]);
  return execFileSync(command, args, { encoding: 'utf8' });
}

describe('the state layers of a task', () => {
  let root: string;
  let home: string;
  let dataDir: string;
  let lines: string[];

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'desk-layers-'));
    home = join(root, 'home');
    dataDir = join(root, 'data');
    mkdirSync(join(home, '.agent'), { recursive: true });
    writeFileSync(join(home, '.agent', 'settings.json'), 'person');
    writeFileSync(join(home, '.agent', 'login.json'), 'person-login');
    lines = [];
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const request = (taskId: string, fresh = false) => ({
    taskId, agentId: 'agent', fresh, log: (line: string) => lines.push(line),
    stateDirs: [join(home, '.agent')], stateFiles: [], loginFiles: [join(home, '.agent', 'login.json')],
  });

  for (const mode of ['overlay', 'copy'] as const) {
    describe(`as ${mode === 'overlay' ? 'an overlay' : 'a copy'}`, () => {
      const layersFor = () => createStateLayers({ dataDir, tools: mode === 'overlay' ? tools : undefined });
      const dir = () => join(home, '.agent');
      // In copy mode the sandbox mounts the copy at the dir: here the test reads and writes the copy itself.
      const path = (layer: OpenStateLayer, name: string) => (layer.mode === 'copy' ? join(layer.mounts[0]?.source ?? '', name) : join(dir(), name));
      const shell = (layer: OpenStateLayer, script: string) => (layer.mode === 'copy' ? execFileSync('sh', ['-c', script], { encoding: 'utf8' }) : inTask(layer, script));

      it.skipIf(mode === 'overlay' && !tools)('gives the task the person\'s state, keeps its writes for its next run only, and hands back the login', async () => {
        const layers = layersFor();
        const first = await layers.open(request('t1', true));
        expect(first.mode).toBe(mode);
        expect(shell(first, `cat "${path(first, 'settings.json')}"`)).toBe('person');
        shell(first, `echo task > "${path(first, 'settings.json')}" && echo refreshed > "${path(first, 'login.json')}" && echo hook > "${path(first, 'hook.sh')}"`);
        expect(await first.release()).toEqual([expect.stringContaining(`handed ${join(dir(), 'login.json')} back`)]);

        expect(readFileSync(join(dir(), 'settings.json'), 'utf8')).toBe('person');
        expect(existsSync(join(dir(), 'hook.sh'))).toBe(false);
        expect(readFileSync(join(dir(), 'login.json'), 'utf8')).toBe('refreshed\n');

        const again = await layers.open(request('t1'));
        expect(shell(again, `cat "${path(again, 'settings.json')}" "${path(again, 'hook.sh')}"`)).toBe('task\nhook\n');
        await again.release();
        const other = await layers.open(request('t2', true));
        expect(shell(other, `cat "${path(other, 'settings.json')}"; echo; ls "${path(other, '')}"`)).toBe('person\nlogin.json\nsettings.json\n');
        await other.release();
      });

      it.skipIf(mode === 'overlay' && !tools)('shows each run the person\'s newest login, not a token the task kept', async () => {
        const layers = layersFor();
        const first = await layers.open(request('t1', true));
        shell(first, `echo refreshed > "${path(first, 'login.json')}"`);
        await first.release();
        writeFileSync(join(dir(), 'login.json'), 'logged in again');
        const next = await layers.open(request('t1'));
        expect(shell(next, `cat "${path(next, 'login.json')}"`)).toBe('logged in again');
        await next.release();
      });

      it.skipIf(mode === 'overlay' && !tools)('removes a task\'s layers when it is forgotten, and a fresh start forgets too', async () => {
        const layers = layersFor();
        const first = await layers.open(request('t1', true));
        shell(first, `echo task > "${path(first, 'settings.json')}"`);
        await first.release();
        const fresh = await layers.open(request('t1', true));
        expect(shell(fresh, `cat "${path(fresh, 'settings.json')}"`)).toBe('person');
        await fresh.release();
        await layers.remove('t1');
        expect(execFileSync('ls', ['-A', join(dataDir, 'agent-state')], { encoding: 'utf8' })).toBe('');
      });
    });
  }

  it.skipIf(!tools)('leaves no mount holder behind when the desk holding it is killed', async () => {
    // A desk in a process of its own opens a layer, says where its holder is, and is killed with SIGKILL.
    const script = `import { createStateLayers } from ${JSON.stringify(join(import.meta.dirname, 'state-layers.ts'))};
      import { findNamespaceTools } from ${JSON.stringify(join(import.meta.dirname, 'state-namespace.ts'))};
      const layers = createStateLayers({ dataDir: ${JSON.stringify(dataDir)}, tools: findNamespaceTools(process.env.PATH) });
      const layer = await layers.open(${JSON.stringify(request('killed', true))});
      console.log(layer.enter('true', []).args[0]);
      setInterval(() => {}, 1000);`;
    const desk = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = await once(createInterface({ input: desk.stdout as NodeJS.ReadableStream }), 'line') as [string];
    const holder = Number(/--target=(\d+)/.exec(line)?.[1]);
    expect(existsSync(`/proc/${holder}`)).toBe(true);
    desk.kill('SIGKILL');
    await once(desk, 'exit');
    await expect.poll(() => existsSync(`/proc/${holder}`) && !/\) Z /.test(readFileSync(`/proc/${holder}/stat`, 'utf8')), { timeout: 5000 }).toBe(false);
  });

  it.skipIf(!tools)('says once, and falls back to copies, when the kernel refuses the overlays', async () => {
    const refusing = { unshare: join(root, 'no-unshare'), nsenter: '/bin/false' };
    writeFileSync(refusing.unshare, '#!/bin/sh\necho "mount: permission denied" >&2\nexit 1\n', { mode: 0o755 });
    const layers = createStateLayers({ dataDir, tools: refusing });
    const first = await layers.open(request('t1', true));
    const second = await layers.open(request('t2', true));
    expect([first.mode, second.mode]).toEqual(['copy', 'copy']);
    expect(lines).toEqual([expect.stringMatching(/^Agent state: overlays cannot be mounted here \(mount: permission denied\); each task gets a copy/)]);
    await Promise.all([first.release(), second.release()]);
  });
});
