import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeMemoryIn } from '../../host/probe-memory';
import { deskFolderName, enforcementWithoutTrial } from './limits-probe';
import { parseMountInfo, parseProcCgroup, type LimitsFacts } from './limits-mode';
import { limitsFingerprint, rememberedLimitsProbe } from './remembered-limits-probe';

let root: string;
afterEach(() => { if (root) rmSync(root, { recursive: true, force: true }); });

/** v1 hierarchies mounted below a file: a trial run there fails as on a machine whose cgroups were taken away. */
const GONE = '/proc/version/cgroups';
const V1_FACTS: LimitsFacts = {
  mounts: parseMountInfo([`32 31 0:29 / ${GONE}/cpu rw - cgroup cgroup rw,cpu`, `35 31 0:32 / ${GONE}/memory rw - cgroup cgroup rw,memory`, `38 31 0:35 / ${GONE}/pids rw - cgroup cgroup rw,pids`].join('\n')),
  ownGroups: parseProcCgroup('8:pids:/\n4:memory:/\n1:cpu:/\n'), v2Controllers: [], uid: 1000,
};
const V2_SESSION: LimitsFacts = {
  mounts: parseMountInfo('30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate'),
  ownGroups: parseProcCgroup('0::/user.slice/user-1000.slice/user@1000.service/app.slice/desk.scope\n'),
  v2Controllers: ['cpu', 'memory', 'pids'], uid: 1000, systemdRun: '/usr/bin/systemd-run',
};

describe('limits remembered between starts', () => {
  it('rebuilds a cgroup mode the desk writes itself for this desk\'s folder, and nothing else', () => {
    const enforcement = enforcementWithoutTrial(V1_FACTS, '/data/desk', 'cgroup-v1');
    expect(enforcement?.status).toMatchObject({ mode: 'cgroup-v1', enforced: true });
    expect(enforcement?.layout).toEqual({ version: 1, memory: `${GONE}/memory/${deskFolderName('/data/desk')}`, pids: `${GONE}/pids/${deskFolderName('/data/desk')}`, cpu: `${GONE}/cpu/${deskFolderName('/data/desk')}` });
    // Nothing is made until a task's group is: no folder appeared.
    expect(existsSync(GONE)).toBe(false);
    expect(enforcementWithoutTrial(V1_FACTS, '/data/desk', 'cgroup-v2')).toBeUndefined();
    expect(enforcementWithoutTrial(V2_SESSION, '/data/desk', 'systemd-scope')).toBeUndefined();
    expect(enforcementWithoutTrial(V2_SESSION, '/data/desk', 'cgroup-v2')?.status.mode).toBe('cgroup-v2');
  });

  it('starts from the remembered mode, and forgets it when the live trial no longer gets it', async () => {
    root = mkdtempSync(join(tmpdir(), 'remembered-limits-'));
    const memory = probeMemoryIn(join(root, 'probes'));
    const fingerprint = limitsFingerprint(V1_FACTS);
    expect(fingerprint).toBeDefined();
    memory.remember('limits', fingerprint as string, { mode: 'cgroup-v1' });
    const probe = rememberedLimitsProbe(memory, { dataDir: join(root, 'data'), facts: V1_FACTS, platform: 'linux', path: '' });
    expect(probe.remembered).toBe(true);
    expect((await probe.first).status.mode).toBe('cgroup-v1');
    const live = await probe.live();
    expect(live.status.enforced).toBe(false);
    expect(memory.recall('limits', fingerprint as string)).toBeUndefined();
    expect(rememberedLimitsProbe(memory, { dataDir: join(root, 'data'), facts: V1_FACTS, platform: 'linux', path: '' }).remembered).toBe(false);
  });

  it('fingerprints the boot with the facts', () => {
    const at = (boot: string) => limitsFingerprint(V1_FACTS, () => boot);
    expect(at('a')).toBe(at('a'));
    expect(at('a')).not.toBe(at('b'));
    expect(limitsFingerprint({ ...V1_FACTS, uid: 0 }, () => 'a')).not.toBe(at('a'));
    expect(at('')).toBeUndefined();
  });
});
