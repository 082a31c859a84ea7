// The sandbox probe as the start line and Settings report it: bubblewrap missing, refused, or working (with its version).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeSandbox } from './sandbox-probe';

describe('finding out whether agents can be confined', () => {
  it('says what to install when bubblewrap is missing', async () => {
    const status = await probeSandbox({ platform: 'linux', path: '/nonexistent' });
    expect(status).toMatchObject({ kind: 'none', available: false, reason: 'bubblewrap (bwrap) is not installed.' });
    expect(status.fix).toContain('apt-get install bubblewrap');
  });

  it('says agents run unconfined on systems without a sandbox yet', async () => {
    expect(await probeSandbox({ platform: 'win32' })).toMatchObject({ available: false, reason: expect.stringContaining('win32') });
    expect(await probeSandbox({ platform: 'darwin' })).toMatchObject({ available: false, reason: expect.stringContaining('macOS') });
  });

  it.runIf(process.platform === 'linux' && bubblewrapWorksHere())('names the bubblewrap version that confines agents here', async () => {
    expect(await probeSandbox()).toMatchObject({ kind: 'bubblewrap', available: true, version: expect.stringMatching(/^bubblewrap \d/) });
  });

  it('says how to allow namespaces when bubblewrap is refused them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-probe-'));
    try {
      // A bwrap that fails the way a kernel without unprivileged user namespaces makes it fail.
      writeFileSync(join(dir, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n');
      chmodSync(join(dir, 'bwrap'), 0o755);
      const status = await probeSandbox({ platform: 'linux', path: dir });
      expect(status).toMatchObject({ kind: 'none', available: false, reason: expect.stringContaining('No permissions to creating new namespace') });
      expect(status.fix).toContain('unprivileged_userns_clone');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Whether this machine lets bubblewrap make a sandbox at all (not in every container). */
function bubblewrapWorksHere(): boolean {
  try {
    execFileSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
