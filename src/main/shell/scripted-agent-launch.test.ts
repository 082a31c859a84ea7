import { describe, expect, it } from 'vitest';
import { scriptedAgentLaunch } from './scripted-agent-launch';

describe('how the app runs the scripted agent', () => {
  it('uses the system Node when there is one, installed or not', () => {
    for (const packaged of [true, false]) {
      expect(scriptedAgentLaunch({ packaged, electronPath: '/opt/desk/assignment-desk', systemNode: '/usr/bin/node' }))
        .toEqual({ command: '/usr/bin/node', env: {} });
    }
  });

  it('lets Electron act as Node in a build from source, where the RunAsNode fuse is still on', () => {
    expect(scriptedAgentLaunch({ packaged: false, electronPath: '/repo/node_modules/electron/dist/electron', systemNode: undefined }))
      .toEqual({ command: '/repo/node_modules/electron/dist/electron', env: { ELECTRON_RUN_AS_NODE: '1' } });
  });

  it('never asks an installed app to run as Node, whose fuse forbids it; it says Node is needed', () => {
    const launch = scriptedAgentLaunch({ packaged: true, electronPath: '/opt/desk/assignment-desk', systemNode: undefined });
    expect(launch.env).not.toHaveProperty('ELECTRON_RUN_AS_NODE');
    expect(launch.command).toBe('node');
    expect(launch.note).toContain('Node.js');
  });
});
