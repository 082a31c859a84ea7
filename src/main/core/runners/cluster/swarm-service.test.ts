import { describe, expect, it } from 'vitest';
import { serviceName, serviceSpec, type ServiceRequest } from './swarm-service';

const request: ServiceRequest = {
  deskId: 'd3sk1d0123456789', taskId: 'Fix the Login/Page', image: 'agents:1', helper: '/opt/desk-runner/desk-runner.mjs', node: 'node',
  command: 'claude-agent-acp', args: ['--verbose'], env: { ANTHROPIC_API_KEY: 'k', PATH: '/home/me/bin', HOME: '/home/me' },
  run: { url: 'http://10.0.0.5:8787/runner/Fix%20the%20Login%2FPage', token: 't0ken', worktree: '/data/worktrees/fix', branch: 'desk/fix' },
  network: 'agents', limits: { cpus: 1.5, memoryMb: 2048, pids: 512 }, readOnly: ['/opt/tools'],
};

describe('a task\'s swarm service', () => {
  it('is named for the desk and the task within Docker\'s rules, one per run', () => {
    expect(serviceName(request.deskId, request.taskId, 'a1b2c3')).toBe('desk-d3sk1d01-fix-the-login-page-a1b2c3');
    expect(serviceName('d', '///', 'x')).toBe('desk-d-task-x');
    expect(serviceName('d'.repeat(20), 'long-'.repeat(30), 'ffffff').length).toBeLessThanOrEqual(63);
  });

  it('runs the helper with the agent after --, the run\'s variables, the agent\'s own variables without this machine\'s PATH and HOME', () => {
    const spec = serviceSpec(request, 'svc');
    const container = spec.TaskTemplate.ContainerSpec;
    expect([...container.Command, ...container.Args]).toEqual(['node', '/opt/desk-runner/desk-runner.mjs', '--', 'claude-agent-acp', '--verbose']);
    expect(container.Env).toEqual(expect.arrayContaining([
      'ANTHROPIC_API_KEY=k', 'HOME=/tmp', 'DESK_RUNNER_URL=http://10.0.0.5:8787/runner/Fix%20the%20Login%2FPage',
      'DESK_RUNNER_TOKEN=t0ken', 'DESK_RUNNER_WORKTREE=/data/worktrees/fix', 'DESK_RUNNER_BRANCH=desk/fix',
    ]));
    expect(container.Env).not.toContain('PATH=/home/me/bin');
  });

  it('is never restarted, has the limits, the labels and no disk of the desk', () => {
    const spec = serviceSpec(request, 'svc');
    expect(spec.TaskTemplate.RestartPolicy.Condition).toBe('none');
    expect(spec.TaskTemplate.Resources.Limits).toEqual({ NanoCPUs: 1.5e9, MemoryBytes: 2048 * 1024 * 1024, Pids: 512 });
    expect(spec.Labels).toEqual({ 'assignment-desk.desk': request.deskId, 'assignment-desk.task': request.taskId });
    const binds = spec.TaskTemplate.ContainerSpec.Mounts.filter((mount) => mount.Type === 'bind');
    expect(binds).toEqual([{ Type: 'bind', Source: '/opt/tools', Target: '/opt/tools', ReadOnly: true }]);
    expect(spec.TaskTemplate.Networks).toEqual([{ Target: 'agents' }]);
    expect(spec.TaskTemplate.ContainerSpec.CapabilityDrop).toEqual(['ALL']);
  });
});
