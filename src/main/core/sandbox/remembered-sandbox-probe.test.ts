import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeMemoryIn } from '../host/probe-memory';
import { rememberedSandboxProbe, sandboxFingerprint } from './remembered-sandbox-probe';

let root: string;
afterEach(() => { if (root) rmSync(root, { recursive: true, force: true }); });

/** A bwrap on its own PATH that notes each run in `runs` and answers as bubblewrap `version` would. */
function fakeBwrap(version: string): { path: string; runs: () => number; script: string } {
  root = mkdtempSync(join(tmpdir(), 'remembered-sandbox-'));
  const script = join(root, 'bwrap');
  const log = join(root, 'runs');
  writeFileSync(script, `#!/bin/sh\necho run >> '${log}'\necho 'bubblewrap ${version}'\n`, { mode: 0o755 });
  return { path: root, script, runs: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0) };
}

const linuxOnly = process.platform !== 'linux';

describe.skipIf(linuxOnly)('the sandbox probe with memory', () => {
  it('fingerprints the bwrap binary, the boot and the namespace switches, and nothing without bwrap', () => {
    const bwrap = fakeBwrap('1.0');
    const files: Record<string, string> = { '/proc/sys/kernel/random/boot_id': 'boot-a\n', '/proc/sys/user/max_user_namespaces': '100\n' };
    const read = (file: string) => files[file] ?? '';
    const before = sandboxFingerprint(bwrap.path, read);
    expect(before).toBeDefined();
    expect(sandboxFingerprint(bwrap.path, read)).toBe(before);
    files['/proc/sys/user/max_user_namespaces'] = '0\n';
    expect(sandboxFingerprint(bwrap.path, read)).not.toBe(before);
    files['/proc/sys/user/max_user_namespaces'] = '100\n';
    files['/proc/sys/kernel/random/boot_id'] = 'boot-b\n';
    expect(sandboxFingerprint(bwrap.path, read)).not.toBe(before);
    files['/proc/sys/kernel/random/boot_id'] = 'boot-a\n';
    writeFileSync(bwrap.script, '#!/bin/sh\necho "bubblewrap 2.0"\n', { mode: 0o755 });
    expect(sandboxFingerprint(bwrap.path, read)).not.toBe(before);
    expect(sandboxFingerprint(join(root, 'nowhere'), read)).toBeUndefined();
    expect(sandboxFingerprint(bwrap.path, (file) => (file.endsWith('boot_id') ? '' : read(file)))).toBeUndefined();
  });

  it('starts from the last working answer on the same machine, and runs the trial only when asked live', async () => {
    const bwrap = fakeBwrap('9.9.9');
    const memory = probeMemoryIn(join(root, 'probes'));
    const first = rememberedSandboxProbe(memory, { path: bwrap.path });
    expect(first.remembered).toBe(false);
    expect(await first.first).toMatchObject({ available: true, version: 'bubblewrap 9.9.9', path: bwrap.script });
    expect(bwrap.runs()).toBe(1);

    const second = rememberedSandboxProbe(memory, { path: bwrap.path });
    expect(second.remembered).toBe(true);
    expect(await second.first).toEqual({ kind: 'bubblewrap', available: true, version: 'bubblewrap 9.9.9', path: bwrap.script });
    expect(bwrap.runs()).toBe(1);
    await second.live();
    expect(bwrap.runs()).toBe(2);
  });

  it('never starts from a refusal or from a file that does not hold a working sandbox', async () => {
    const bwrap = fakeBwrap('1.0');
    const memory = probeMemoryIn(join(root, 'probes'));
    writeFileSync(bwrap.script, '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
    const refused = rememberedSandboxProbe(memory, { path: bwrap.path });
    expect(await refused.first).toMatchObject({ available: false });
    expect(existsSync(join(root, 'probes', 'sandbox.json'))).toBe(false);

    const fingerprint = sandboxFingerprint(bwrap.path) as string;
    for (const kept of [{ kind: 'none', available: false, reason: 'x' }, { kind: 'bubblewrap', available: true }, 'bubblewrap']) {
      memory.remember('sandbox', fingerprint, kept);
      expect(rememberedSandboxProbe(memory, { path: bwrap.path }).remembered).toBe(false);
    }
  });
});
