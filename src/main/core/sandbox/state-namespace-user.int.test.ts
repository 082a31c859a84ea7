// The state overlays as a person's desktop runs them: not as root. The desk's user makes the namespace, mounts the
// overlay, and bubblewrap (entered into it) gives the process its own ids back. Where the tests run as root (CI), the
// scenario runs as `nobody` through setpriv; elsewhere as the user running the tests.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../host/find-on-path';
import { findNamespaceTools } from './state-namespace';
import { sandboxForTests } from './test-support/sandbox-for-tests';

const { skip, status } = await sandboxForTests();
/** Where `--import tsx` finds tsx. */
const PROJECT_ROOT = resolve(import.meta.dirname, '../../../..');
const tools = findNamespaceTools(process.env.PATH ?? '');
const root = process.getuid?.() === 0;
const setpriv = findOnPath('setpriv', process.env.PATH ?? '');
const why = skip || (!tools ? 'unshare and nsenter are not on PATH' : root && !setpriv ? 'setpriv (util-linux) is not on PATH' : false);

describe.skipIf(why)(`the state overlay for a user who is not root${why ? ` (skipped: ${why})` : ''}`, () => {
  let dir: string;
  // Not nobody's 65534: that is also the id an unmapped user shows as, and the test must tell the two apart.
  const uid = root ? 4242 : process.getuid?.() ?? 0;
  const gid = root ? 4242 : process.getgid?.() ?? 0;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'desk-userns-'));
    chmodSync(dir, 0o755);
    for (const name of ['lower', 'upper', 'work']) mkdirSync(join(dir, name));
    writeFileSync(join(dir, 'lower', 'settings.json'), 'person');
    if (root) for (const name of ['', 'lower', 'upper', 'work', 'lower/settings.json']) chownSync(join(dir, name), uid, gid);
  });
  afterAll(() => {
    // The overlay's work dir keeps a directory without permissions: root removes it whatever its mode.
    if (!root) execFileSync('chmod', ['-R', 'u+rwx', dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the task\'s changes to its upper layer as the user, leaves the person\'s dir as it was', () => {
    const script = `
      import { openStateNamespace } from ${JSON.stringify(join(import.meta.dirname, 'state-namespace.ts'))};
      import { bwrapArguments } from ${JSON.stringify(join(import.meta.dirname, 'bwrap-arguments.ts'))};
      import { execFileSync } from 'node:child_process';
      const d = ${JSON.stringify(dir)};
      const ns = await openStateNamespace(${JSON.stringify(tools)}, [{ lower: d + '/lower', upper: d + '/upper', work: d + '/work', target: d + '/lower' }]);
      const layout = { bwrap: ${JSON.stringify(status.path ?? 'bwrap')}, cwd: '/', network: 'none', newSession: true, ownIds: { uid: ${uid}, gid: ${gid} },
        mounts: [{ kind: 'writable', path: d + '/lower' }] };
      const confined = bwrapArguments(layout, 'sh', ['-c', 'id -u; id -g; cat ' + d + '/lower/settings.json; echo; echo hook > ' + d + '/lower/settings.json; rm ' + d + '/lower/settings.json; echo new > ' + d + '/lower/new.txt']);
      const entered = ns.enter(layout.bwrap, confined);
      process.stdout.write(execFileSync(entered.command, entered.args, { encoding: 'utf8' }));
      ns.close();`;
    const node = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', script];
    const command = root ? [setpriv ?? 'setpriv', '--reuid', String(uid), '--regid', String(gid), '--clear-groups', '--', ...node] : node;
    const output = execFileSync(command[0] ?? '', command.slice(1), { encoding: 'utf8', cwd: PROJECT_ROOT, env: { ...process.env, HOME: dir } });

    expect(output.split('\n').slice(0, 3)).toEqual([String(uid), String(gid), 'person']);
    expect(readFileSync(join(dir, 'lower', 'settings.json'), 'utf8')).toBe('person');
    expect(readdirSync(join(dir, 'lower'))).toEqual(['settings.json']);
    expect(readFileSync(join(dir, 'upper', 'new.txt'), 'utf8')).toBe('new\n');
    expect(statSync(join(dir, 'upper', 'new.txt')).uid).toBe(uid);
    // The deletion is the overlay's whiteout in the task's layer, not a change to the person's dir.
    expect(statSync(join(dir, 'upper', 'settings.json')).isCharacterDevice()).toBe(true);
    expect(existsSync(join(dir, 'lower', 'new.txt'))).toBe(false);
  });
});
