import { describe, expect, it } from 'vitest';
import { containerEnv, createOptions, runArguments, tighterLimits, type ContainerRequest } from './container-spec';
import { dockerOptions } from './docker-client';

const request: ContainerRequest = {
  deskId: 'abcdefgh', taskId: 'fix-login', image: 'node:22', worktree: '/data/wt/fix-login',
  gitBinds: ['/data/ct/run/git:/data/ct/run/git:rw', '/repo/.git/objects:/repo/.git/objects:ro'], readOnly: ['/opt/agents'], network: 'none',
  limits: { cpus: 1.5, memoryMb: 512, pids: 100 }, user: '1000:1000',
  env: { PATH: '/usr/bin', HOME: '/home/me', ANTHROPIC_API_KEY: 'secret', TMPDIR: '/tmp/sb' },
};

describe('the container of a task', () => {
  it('mounts the worktree read-write, its git binds, and more paths read-only at their own paths, and nothing of the home', () => {
    const options = createOptions(request, 'claude-agent-acp', ['--stdio'], request.worktree);
    expect(options.HostConfig.Binds).toEqual([
      '/data/wt/fix-login:/data/wt/fix-login:rw', '/data/ct/run/git:/data/ct/run/git:rw',
      '/repo/.git/objects:/repo/.git/objects:ro', '/opt/agents:/opt/agents:ro',
    ]);
    expect(options).toMatchObject({ Entrypoint: ['claude-agent-acp'], Cmd: ['--stdio'], WorkingDir: '/data/wt/fix-login', User: '1000:1000', OpenStdin: true, StdinOnce: true, Tty: false });
  });

  it('carries the desk and task labels, the limits, no capabilities and the network it is given', () => {
    const { HostConfig, Labels } = createOptions(request, 'agent', [], request.worktree);
    expect(Labels).toEqual({ 'assignment-desk.desk': 'abcdefgh', 'assignment-desk.task': 'fix-login' });
    expect(HostConfig).toMatchObject({ NetworkMode: 'none', NanoCpus: 1.5e9, Memory: 512 * 1024 * 1024, PidsLimit: 100, CapDrop: ['ALL'], AutoRemove: true });
  });

  it("gives the agent the task's own home, never the person's, as HOME in every container of the task", () => {
    const withHome = { ...request, home: '/data/agent-state/abc/def/home' };
    expect(createOptions(withHome, 'agent', [], request.worktree).HostConfig.Binds).toContain('/data/agent-state/abc/def/home:/desk-home:rw');
    expect(createOptions(withHome, 'agent', [], request.worktree).Env).toContain('HOME=/desk-home');
    const args = runArguments(withHome, 'sh', [], { cwd: request.worktree }).join(' ');
    expect(args).toContain('--volume /data/agent-state/abc/def/home:/desk-home:rw');
    expect(args).toContain('--env HOME=/desk-home');
    expect(args).not.toContain('/home/me');
  });

  it("passes the agent's variables but not this machine's PATH, HOME or temp dir", () => {
    expect(containerEnv(request.env)).toEqual({ ANTHROPIC_API_KEY: 'secret', HOME: '/tmp', TMPDIR: '/tmp' });
  });

  it('starts setup and terminals in a container of their own with the same mounts, limits and labels, naming variables without their values', () => {
    const args = runArguments(request, 'sh', ['-c', 'npm ci'], { cwd: request.worktree, terminal: true });
    expect(args.slice(0, 4)).toEqual(['run', '--rm', '-i', '-t']);
    expect(args.join(' ')).toContain('--network none');
    expect(args.join(' ')).toContain('--volume /data/wt/fix-login:/data/wt/fix-login:rw');
    expect(args.join(' ')).toContain('--label assignment-desk.task=fix-login');
    expect(args.join(' ')).toContain('--pids-limit 100');
    expect(args).toContain('ANTHROPIC_API_KEY');
    expect(args.join(' ')).not.toContain('secret');
    expect(args.slice(-5)).toEqual(['--entrypoint', 'sh', 'node:22', '-c', 'npm ci']);
  });
});

it("takes each limit at the tighter of the runner's and the agent policy's", () => {
  expect(tighterLimits({ cpus: 2, memoryMb: 4096 }, { memoryMb: 1024, pids: 64 })).toEqual({ cpus: 2, memoryMb: 1024, pids: 64 });
  expect(tighterLimits({ pids: 32 }, { pids: 64 })).toEqual({ pids: 32 });
  expect(tighterLimits({}, undefined)).toEqual({});
});

describe('the Docker host', () => {
  it('reads unix, tcp, https and ssh addresses, and leaves the environment to dockerode when none is given', () => {
    expect(dockerOptions(undefined)).toBeUndefined();
    expect(dockerOptions('unix:///run/docker.sock')).toEqual({ socketPath: '/run/docker.sock' });
    expect(dockerOptions('tcp://build-box:2375')).toEqual({ host: 'build-box', port: '2375', protocol: 'http' });
    expect(dockerOptions('https://build-box')).toEqual({ host: 'build-box', port: '2376', protocol: 'https' });
    expect(dockerOptions('ssh://me@build-box')).toEqual({ host: 'build-box', username: 'me', protocol: 'ssh' });
  });
});
