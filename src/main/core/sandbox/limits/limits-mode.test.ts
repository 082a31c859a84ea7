import { describe, expect, it } from 'vitest';
import { fallbackStatus, limitCandidates, parseMountInfo, parseProcCgroup, type LimitsFacts } from './limits-mode';

// This CI machine's shape: v1 hierarchies for memory, pids and cpu, a v2 mount whose controllers are all bound to v1.
const HYBRID_MOUNTS = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu',
  '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
  '38 31 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
  '40 31 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');
const HYBRID_OWN = '8:pids:/\n4:memory:/process_api/5ce3\n1:cpu:/\n0::/\n';
const V2_MOUNTS = '30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate';

const facts = (overrides: Partial<LimitsFacts>): LimitsFacts => ({ mounts: [], ownGroups: [], v2Controllers: [], uid: 1000, ...overrides });

describe('reading /proc', () => {
  it('finds v1 hierarchies with their controllers and the v2 tree', () => {
    expect(parseMountInfo(HYBRID_MOUNTS).map((mount) => [mount.version, mount.path, mount.controllers.join(',')])).toEqual([
      [1, '/sys/fs/cgroup/cpu', 'cpu'], [1, '/sys/fs/cgroup/memory', 'memory'], [1, '/sys/fs/cgroup/pids', 'pids'], [2, '/sys/fs/cgroup/unified', ''],
    ]);
  });

  it('reads the desk\'s own group in each hierarchy', () => {
    expect(parseProcCgroup(HYBRID_OWN)).toEqual([
      { controllers: ['pids'], path: '/' }, { controllers: ['memory'], path: '/process_api/5ce3' }, { controllers: ['cpu'], path: '/' }, { controllers: [], path: '/' },
    ]);
  });
});

describe('limitCandidates', () => {
  it('nests the desk\'s v1 folders under its own groups when v2 has no memory controller', () => {
    const found = limitCandidates(facts({ mounts: parseMountInfo(HYBRID_MOUNTS), ownGroups: parseProcCgroup(HYBRID_OWN), v2Controllers: ['hugetlb'] }), 'assignment-desk-ab');
    expect(found).toEqual([{
      mode: 'cgroup-v1',
      layout: { version: 1, memory: '/sys/fs/cgroup/memory/process_api/5ce3/assignment-desk-ab', pids: '/sys/fs/cgroup/pids/assignment-desk-ab', cpu: '/sys/fs/cgroup/cpu/assignment-desk-ab' },
    }]);
  });

  it('tries a delegated systemd scope first in a person\'s session on v2, then the v2 tree directly', () => {
    const found = limitCandidates(facts({
      mounts: parseMountInfo(V2_MOUNTS),
      ownGroups: parseProcCgroup('0::/user.slice/user-1000.slice/user@1000.service/app.slice/desk.scope\n'),
      v2Controllers: ['cpu', 'memory', 'pids'],
      systemdRun: '/usr/bin/systemd-run',
    }), 'assignment-desk-ab');
    expect(found.map((candidate) => candidate.mode)).toEqual(['systemd-scope', 'cgroup-v2']);
    expect(found[1]).toMatchObject({ layout: { version: 2, base: '/sys/fs/cgroup/assignment-desk-ab', cpu: true } });
  });

  it('does not ask systemd when the desk runs outside the user\'s manager (a login session scope)', () => {
    const found = limitCandidates(facts({
      mounts: parseMountInfo(V2_MOUNTS),
      ownGroups: parseProcCgroup('0::/user.slice/user-1000.slice/session-2.scope\n'),
      v2Controllers: ['memory', 'pids'],
      systemdRun: '/usr/bin/systemd-run',
    }), 'd');
    expect(found.map((candidate) => candidate.mode)).toEqual(['cgroup-v2']);
  });

  it('finds nothing where no memory and pids controllers are mounted', () => {
    expect(limitCandidates(facts({ mounts: parseMountInfo(V2_MOUNTS), v2Controllers: ['cpu'] }), 'd')).toEqual([]);
  });

  it('reads a container\'s v1 mount of its own subtree relative to that subtree', () => {
    const mounts = parseMountInfo([
      '1 0 0:1 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory',
      '2 0 0:2 /docker/abc /sys/fs/cgroup/pids ro - cgroup cgroup rw,pids',
    ].join('\n'));
    const found = limitCandidates(facts({ mounts, ownGroups: parseProcCgroup('4:memory:/docker/abc\n3:pids:/docker/abc/x\n') }), 'd');
    expect(found[0]).toMatchObject({ layout: { memory: '/sys/fs/cgroup/memory/d', pids: '/sys/fs/cgroup/pids/x/d' } });
  });
});

describe('fallbackStatus', () => {
  it('falls back to rlimits and says limits are not enforced per task, why and what to do', () => {
    const status = fallbackStatus('linux', '/usr/bin/prlimit', ['cgroup-v1: mkdir /sys/fs/cgroup/memory/d: read-only file system']);
    expect(status).toMatchObject({ mode: 'rlimits', enforced: false });
    expect(status.detail).toMatch(/^Limits not enforced per task/);
    expect(status.reason).toContain('read-only file system');
    expect(status.fix).toContain('systemd user session');
  });

  it('enforces nothing without prlimit, and says how to get it', () => {
    expect(fallbackStatus('linux', undefined, [])).toMatchObject({ mode: 'none', enforced: false, fix: expect.stringContaining('prlimit') });
  });

  it('says limits are Linux-only elsewhere', () => {
    expect(fallbackStatus('darwin', undefined, [])).toMatchObject({ mode: 'none', reason: expect.stringContaining('darwin') });
  });
});
