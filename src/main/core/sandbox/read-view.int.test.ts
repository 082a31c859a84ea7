// The read view as an attacker tries it, through a real agent process in the real sandbox running its own
// commands: other directories of /tmp and the rest of the home are out of sight; the toolchains still run.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from '../git/git-test-fixture';
import { desksPerTest, scriptedAgent, type Desk } from '../test-support/desk-harness';
import type { Attack, AttackResult } from './test-support/hostile-agent';
import { bundledSource } from './network/bridge-files';
import { hostileAgent, sandboxForTests } from './test-support/sandbox-for-tests';

const { skip } = await sandboxForTests();

describe.skipIf(skip)(`what an agent can read in the sandbox${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const openDesk = desksPerTest();
  let root: string;
  let home: string;
  let someoneElse: string;
  const savedHome = process.env.HOME;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'desk-view-'));
    // Another program's temp dir, and the person's home with a note, a shell history and a toolchain.
    someoneElse = join(root, 'someone-else');
    mkdirSync(someoneElse);
    writeFileSync(join(someoneElse, 'secret.env'), 'TOKEN=in-tmp');
    home = join(root, 'home');
    mkdirSync(join(home, 'notes'), { recursive: true });
    writeFileSync(join(home, 'notes', 'secret.txt'), 'a note in the home');
    writeFileSync(join(home, '.bash_history'), 'export TOKEN=in-history');
    const nvmBin = join(home, '.nvm', 'versions', 'node', 'v0', 'bin');
    mkdirSync(nvmBin, { recursive: true });
    writeFileSync(join(nvmBin, 'hello'), '#!/bin/sh\necho hello from nvm\n');
    chmodSync(join(nvmBin, 'hello'), 0o755);
    writeFileSync(join(home, '.nvm', 'private.txt'), 'kept by the policy');
    writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Person From Gitconfig\n');
    process.env.HOME = home;
  });
  afterAll(() => {
    process.env.HOME = savedHome;
    rmSync(root, { recursive: true, force: true });
  });

  async function attack(desk: Desk, id: string, attacks: Attack[], agent = 'hostile'): Promise<AttackResult[]> {
    expect((await desk.api('POST', '/', { id, prompt: JSON.stringify(attacks), agent })).status).toBe(202);
    await desk.waitForStatus(id, ['completed', 'error']);
    const detail = (await desk.api('GET', `/tasks/${id}`)).json;
    expect(detail.errorMessage).toBeUndefined();
    return JSON.parse(git(desk.repo, 'show', `${detail.commit}:attack-report.json`)) as AttackResult[];
  }

  it('cannot read a file in another directory of /tmp, and its own /tmp is its temp dir', async () => {
    const desk = await openDesk({ agents: [scriptedAgent(), hostileAgent()] });
    const report = await attack(desk, 'tmp', [
      { exec: `cat ${join(someoneElse, 'secret.env')}` },
      { exec: 'ls -a /tmp' },
      { exec: 'echo mine > /tmp/mine.txt && cat "$TMPDIR/mine.txt"' },
    ]);
    expect(report[0]).toMatchObject({ ok: false, error: expect.stringContaining('No such file') });
    expect(report[1]?.output).not.toContain('someone-else');
    expect(report[2]).toMatchObject({ ok: true, output: 'mine\n' });
  });

  it('cannot read the person\'s notes or shell history in the home, while a toolchain under ~/.nvm runs and git reads ~/.gitconfig', async () => {
    // /tmp opened read-only by the policy: what hides the home is the home's own rule, not the private /tmp.
    const desk = await openDesk({ agents: [scriptedAgent(), hostileAgent()], policy: { version: 1, defaults: { readablePaths: [root] } } });
    const report = await attack(desk, 'home', [
      { exec: 'cat ~/notes/secret.txt' },
      { exec: 'cat ~/.bash_history' },
      { exec: 'ls -a ~' },
      { exec: '~/.nvm/versions/node/v0/bin/hello' },
      { exec: 'git config --global user.name' },
      { exec: `cat ${join(someoneElse, 'secret.env')}` },
    ]);
    expect(report[0]).toMatchObject({ ok: false, error: expect.stringContaining('No such file') });
    expect(report[1]).toMatchObject({ ok: false, error: expect.stringContaining('No such file') });
    expect(report[2]?.output?.split('\n').filter(Boolean).sort()).toEqual(['.', '..', '.gitconfig', '.nvm']);
    expect(report[3]).toMatchObject({ ok: true, output: 'hello from nvm\n' });
    expect(report[4]).toMatchObject({ ok: true, output: 'Person From Gitconfig\n' });
    expect(report[5]).toMatchObject({ ok: true, output: 'TOKEN=in-tmp' });
  });

  it('hides what the policy\'s hiddenPaths name, even inside a toolchain, and opens what its readablePaths name', async () => {
    const policy = { version: 1 as const, defaults: { hiddenPaths: ['~/.nvm/private.txt'], readablePaths: ['~/notes'] } };
    const desk = await openDesk({ agents: [scriptedAgent(), hostileAgent()], policy });
    const report = await attack(desk, 'policy', [
      { exec: 'cat ~/.nvm/private.txt' },
      { exec: 'cat ~/notes/secret.txt' },
      { exec: 'echo changed > ~/notes/secret.txt' },
      { exec: '~/.nvm/versions/node/v0/bin/hello' },
    ]);
    expect(report[0]?.output ?? '').toBe('');
    expect(report[1]).toMatchObject({ ok: true, output: 'a note in the home' });
    expect(report[2]).toMatchObject({ ok: false, error: expect.stringContaining('Read-only') });
    expect(report[3]).toMatchObject({ ok: true, output: 'hello from nvm\n' });
  });

  it('starts an agent installed in the hidden home', async () => {
    // Installed as a real agent is: one program holding all it runs, not leaning on this checkout (hidden when it lies under /tmp).
    const installed = join(home, 'agents', 'attacker');
    mkdirSync(installed, { recursive: true });
    const entry = join(installed, 'agent.cjs');
    copyFileSync(bundledSource(resolve(import.meta.dirname, 'test-support', 'hostile-agent.ts')), entry);
    const fromHome = { ...hostileAgent(), id: 'from-home', args: [entry] };
    const desk = await openDesk({ agents: [scriptedAgent(), fromHome] });
    const report = await attack(desk, 'installed', [{ exec: `cat ${entry}` }, { exec: 'cat ~/notes/secret.txt' }], 'from-home');
    expect(report[0]?.ok).toBe(true);
    expect(report[1]?.ok).toBe(false);
  });

  it('starts an agent found on PATH through a link in a hidden directory, its install elsewhere', async () => {
    // As npm's or a version manager's bin dir under /tmp does it: a link on PATH, the program where it leads.
    const installed = join(home, 'agents', 'linked');
    const bin = join(root, 'linked-bin');
    mkdirSync(installed, { recursive: true });
    mkdirSync(bin, { recursive: true });
    const program = join(installed, 'attacker.cjs');
    writeFileSync(program, `#!/usr/bin/env node\n${readFileSync(bundledSource(resolve(import.meta.dirname, 'test-support', 'hostile-agent.ts')), 'utf8')}`);
    chmodSync(program, 0o755);
    symlinkSync(program, join(bin, 'linked-attacker'));
    const linked = { ...hostileAgent(), id: 'linked', command: 'linked-attacker', args: [], env: { PATH: `${bin}:${process.env.PATH ?? ''}` } };
    const desk = await openDesk({ agents: [scriptedAgent(), linked] });
    const report = await attack(desk, 'linked', [{ exec: 'cat ~/notes/secret.txt' }], 'linked');
    expect(report[0]?.ok).toBe(false);
  });
});
