// The desk's git inside a task's namespace, where the desk is root, as a desk run by a person (not root) runs it: the
// index it writes must keep the owners the desk's own git (and the agent's) see, or the next git reads every file
// again. A desk run by root never shows it, so the scenario runs as `nobody`, in a process of its own.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tsxLoaderUrl } from '../sandbox/network/bridge-files';
import { findNamespaceTools } from '../sandbox/state-namespace';
import { namespaceIdsOf, unshareMapsUsers } from './namespaced-git';

const NOBODY = 65_534;
const tools = findNamespaceTools(process.env.PATH ?? '');
const here = resolve(import.meta.dirname);

/** Why the scenario cannot run here, or undefined: it needs root (to become nobody) and an unshare that maps users. */
function cannotRun(): string | undefined {
  if (process.getuid?.() !== 0) return 'the tests do not run as root, so they cannot run a desk as another user';
  if (!tools) return 'unshare and nsenter are not on PATH';
  if (!unshareMapsUsers(tools.unshare)) return 'unshare cannot map a user (util-linux before 2.38)';
  const reads = spawnSync('/bin/sh', ['-c', `test -r '${join(here, 'namespaced-git.ts')}'`], { uid: NOBODY, gid: NOBODY });
  return reads.status === 0 ? undefined : 'nobody cannot read this checkout';
}
const why = cannotRun();

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** What the scenario prints: the owners the index records after each git. */
interface Owners { before: string; asDesk: string; asRoot: string }

const SCENARIO = `
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGitRunner } from '${join(here, 'git-runner.ts')}';
import { namespacedGit, namespaceIdsOf, unshareMapsUsers } from '${join(here, 'namespaced-git.ts')}';
import { findNamespaceTools, openStateNamespace } from '${join(here, '..', 'sandbox', 'state-namespace.ts')}';

const dir = process.argv[2];
const repo = join(dir, 'repo');
const git = (...args) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', env: { ...process.env, HOME: dir } });
const owners = () => [...new Set(git('ls-files', '--debug').split('\\n').filter((line) => line.includes('uid:')).map((line) => line.trim()))].join(' | ');
mkdirSync(repo);
git('init', '--quiet');
for (let n = 0; n < 20; n++) writeFileSync(join(repo, 'file-' + n + '.txt'), 'line ' + n + '\\n');
git('add', '.');
git('-c', 'user.name=Test', '-c', 'user.email=test@example.test', 'commit', '--quiet', '-m', 'files');
// Past the second the files were written in, then a status outside: no entry is racy, and the index is the desk's.
await new Promise((done) => setTimeout(done, 1100));
git('status', '--porcelain');
const before = owners();

const tools = findNamespaceTools(process.env.PATH);
const places = ['lower', 'upper', 'work', 'merged'].map((name) => join(dir, name));
for (const place of places) mkdirSync(place);
const [lower, upper, work, target] = places;
const namespace = await openStateNamespace(tools, [{ lower, upper, work, target }]);
const inside = (ids) => namespacedGit(createGitRunner(), { enter: namespace.enter, gitProgram: 'git', ...(ids && { ids }) });
const worktree = { gitDir: join(repo, '.git'), workTree: repo };
await inside(() => namespaceIdsOf({ uid: process.getuid(), gid: process.getgid() }, tools.unshare, unshareMapsUsers)).run(worktree, ['status', '--porcelain']);
const asDesk = owners();
await inside(undefined).run(worktree, ['status', '--porcelain']);
const asRoot = owners();
namespace.close();
process.stdout.write(JSON.stringify({ before, asDesk, asRoot }));
`;

describe.skipIf(why !== undefined)(`the desk's git inside a task's namespace${why ? ` (skipped: ${why})` : ''}`, () => {
  it("keeps the owners the index records as the desk's own git sees them, where git as the namespace's root would not", () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-namespaced-git-'));
    folders.push(dir);
    chownSync(dir, NOBODY, NOBODY);
    chmodSync(dir, 0o700);
    const script = join(dir, 'scenario.mts');
    writeFileSync(script, SCENARIO);
    chownSync(script, NOBODY, NOBODY);
    const output = execFileSync(process.execPath, ['--import', tsxLoaderUrl(), script, dir], {
      uid: NOBODY, gid: NOBODY, cwd: dir, encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: dir, TMPDIR: dir, LANG: 'C.UTF-8' },
    });
    const owners = JSON.parse(output) as Owners;
    expect(owners.before).toBe(`uid: ${NOBODY}\tgid: ${NOBODY}`);
    expect(owners.asDesk).toBe(owners.before);
    // Without the mapping, git inside rewrites every entry with the namespace's root as owner.
    expect(owners.asRoot).toBe('uid: 0\tgid: 0');
  });
});

describe('who the desk\'s git runs as inside a namespace', () => {
  const maps = () => true;
  it('is the desk\'s own user and group, mapped by unshare, for a desk that is not root', () => {
    expect(namespaceIdsOf({ uid: 1000, gid: 1001 }, '/usr/bin/unshare', maps)).toEqual({ unshare: '/usr/bin/unshare', uid: 1000, gid: 1001 });
  });

  it('is the namespace\'s root for a desk run by root, without unshare, or with one that cannot map a user', () => {
    expect(namespaceIdsOf({ uid: 0, gid: 0 }, '/usr/bin/unshare', maps)).toBeUndefined();
    expect(namespaceIdsOf({ uid: 1000, gid: 1000 }, undefined, maps)).toBeUndefined();
    expect(namespaceIdsOf({ uid: 1000, gid: 1000 }, '/usr/bin/unshare', () => false)).toBeUndefined();
    expect(namespaceIdsOf(undefined, '/usr/bin/unshare', maps)).toBeUndefined();
  });
});
