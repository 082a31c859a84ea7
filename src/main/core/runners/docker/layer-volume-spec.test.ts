import { describe, expect, it } from 'vitest';
import { createOptions, runArguments, type ContainerRequest } from './container-spec';
import { deskVolumeFilter, keeperOptions, layerVolumeName, layerVolumeOptions } from './layer-volume-spec';

const facts = { deskId: 'abcdefgh', taskId: 'fix login/1', lower: '/data/snapshots/abc/tree', upper: '/data/task-layers/0123/upper', work: '/data/task-layers/0123/lent-work' };

describe("a layered worktree's volume on a local Docker daemon", () => {
  it("is the local driver's overlay of the snapshot and the task's upper dir, with a work dir of its own and userxattr, labelled", () => {
    const options = layerVolumeOptions(facts);
    expect(options).toEqual({
      Name: layerVolumeName('abcdefgh', 'fix login/1'),
      Driver: 'local',
      DriverOpts: { type: 'overlay', device: 'overlay', o: 'lowerdir=/data/snapshots/abc/tree,upperdir=/data/task-layers/0123/upper,workdir=/data/task-layers/0123/lent-work,userxattr' },
      Labels: { 'assignment-desk.desk': 'abcdefgh', 'assignment-desk.task': 'fix login/1', 'assignment-desk.role': 'layer' },
    });
    expect(options.Name).toMatch(/^assignment-desk-abcdefgh-layer-[0-9a-f]{16}$/);
    expect(layerVolumeName('abcdefgh', 'other')).not.toBe(options.Name);
    expect(deskVolumeFilter('abcdefgh')).toEqual({ label: ['assignment-desk.desk=abcdefgh', 'assignment-desk.role=layer'] });
  });

  it('refuses a path the mount options cannot carry, rather than mount something else', () => {
    expect(() => layerVolumeOptions({ ...facts, lower: '/data/a,upperdir=/etc' })).toThrow(/comma, colon or backslash/);
    expect(() => layerVolumeOptions({ ...facts, upper: '/data/a:b' })).toThrow(/comma, colon or backslash/);
  });

  const request: ContainerRequest = {
    deskId: 'abcdefgh', taskId: 'fix login/1', image: 'node:22', worktree: '/data/wt/fix-login', worktreeVolume: 'assignment-desk-abcdefgh-layer-x',
    gitBinds: ['/data/ct/run/git:/data/ct/run/git:rw', '/data/ct/run/link:/data/wt/fix-login/.git:ro'], readOnly: [], network: 'none',
    limits: {}, user: '1000:1000', env: {},
  };

  it('is mounted at the worktree path, under the same git binds, in the agent container and in every `docker run` beside it', () => {
    expect(createOptions(request, 'agent', [], request.worktree).HostConfig.Binds).toEqual([
      'assignment-desk-abcdefgh-layer-x:/data/wt/fix-login:rw', '/data/ct/run/git:/data/ct/run/git:rw', '/data/ct/run/link:/data/wt/fix-login/.git:ro',
    ]);
    expect(runArguments(request, 'sh', [], { cwd: request.worktree }).join(' ')).toContain('--volume assignment-desk-abcdefgh-layer-x:/data/wt/fix-login:rw');
    expect(runArguments(request, 'sh', [], { cwd: request.worktree }).join(' ')).not.toContain('/data/wt/fix-login:/data/wt/fix-login');
  });

  it('is held by a keeper that mounts nothing else, has no network or capabilities, and waits on its stdin', () => {
    const keeper = keeperOptions(request, 'vol');
    expect(keeper).toMatchObject({
      Image: 'node:22', Entrypoint: ['sh'], Cmd: ['-c', 'read _ || :'], User: '1000:1000', OpenStdin: true, StdinOnce: false,
      Labels: { 'assignment-desk.desk': 'abcdefgh', 'assignment-desk.task': 'fix login/1', 'assignment-desk.role': 'keeper' },
      HostConfig: { Binds: ['vol:/data/wt/fix-login:rw'], NetworkMode: 'none', CapDrop: ['ALL'], SecurityOpt: ['no-new-privileges'], AutoRemove: false },
    });
  });
});
