// Attacks on the person's repository from inside a docker runner's container, through a real agent process with
// commands allowed: the container's git works in a git dir of the task's own (the local sandbox's design), so the
// person's refs, objects, index, HEAD, stash and reflogs come out byte-for-byte as they were, and the desk alone
// brings the agent's own commits onto the task's branch.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { git } from '../../src/main/core/git/git-test-fixture';
import type { Attack, AttackResult } from '../../src/main/core/sandbox/test-support/hostile-agent';
import { gitDirChanges, snapshotGitDir } from '../../src/main/core/sandbox/test-support/git-dir-snapshot';
import { hostileAgent } from '../../src/main/core/sandbox/test-support/sandbox-for-tests';
import { deskPerFile, policyAllowing, scriptedAgent, taskEvents, type Desk } from '../../src/main/core/test-support/desk-harness';
import { dockerRunnersFor } from './docker-test-config';

const host = inject('dockerHost');
const image = inject('dockerImage');
const skipReason = inject('dockerSkip');
const ID = '-c user.name=Agent -c user.email=agent@example.test';

/**
 * Run inside the container on the Node mounted there (the image has no rm): removes the directory it is given, then
 * overwrites every file left in it; prints each distinct outcome (`removed`, `wrote`, or the error code).
 */
const DAMAGE_SCRIPT = `const fs = require('fs'), path = require('path'); const root = process.argv[2]; const seen = new Set();
try { fs.rmSync(root, { recursive: true, force: true }); seen.add('removed'); } catch (e) { seen.add('rm ' + e.code); }
const walk = (dir) => { for (const entry of fs.readdirSync(dir, { withFileTypes: true })) { const p = path.join(dir, entry.name);
  if (entry.isDirectory()) walk(p); else { try { fs.writeFileSync(p, 'x'); seen.add('wrote'); } catch (e) { seen.add('write ' + e.code); } } } };
try { walk(root); } catch (e) { seen.add('walk ' + e.code); } console.log([...seen].join(' '));`;

if (!host) describe.skip(`an agent's own git in a docker container (skipped: ${skipReason})`, () => { it('needs Docker', () => {}); });
else describe("an agent's own git in a docker container", () => {
  const desk = deskPerFile({ agents: [scriptedAgent(), hostileAgent()], policy: policyAllowing('execute'), runners: dockerRunnersFor(host, image) });
  let gitDir: string;

  beforeAll(() => {
    const { repo } = desk();
    gitDir = join(repo, '.git');
    // What a person's repository holds besides main: another branch, a tag, a stash, all packed.
    git(repo, 'branch', 'other');
    git(repo, 'tag', '-a', 'v1', '-m', 'release');
    writeFileSync(join(repo, 'README.md'), '# Fixture, edited\n');
    git(repo, 'stash', 'push', '-q', '-m', "person's unfinished work");
    git(repo, 'pack-refs', '--all', '--no-prune');
  });

  /** Runs the attacks as the hostile agent in a container; returns its report, the task's commit and branch. */
  async function attack(d: Desk, id: string, attacks: Attack[]): Promise<{ report: AttackResult[]; commit: string; branch: string }> {
    const submitted = await d.api('POST', '/', { id, prompt: JSON.stringify(attacks), agent: 'hostile', runner: 'docker' });
    expect(submitted.status).toBe(202);
    await d.waitForStatus(id, ['completed', 'error'], 90_000);
    const detail = (await d.api('GET', `/tasks/${id}`)).json;
    expect(detail).toMatchObject({ status: 'completed', runner: 'docker' });
    const report = JSON.parse(git(d.repo, 'show', `${detail.commit}:attack-report.json`)) as AttackResult[];
    return { report, commit: detail.commit, branch: git(d.repo, 'for-each-ref', '--format=%(refname:short)', `--points-at=${detail.commit}`, 'refs/heads/desk') };
  }

  function expectUnchanged(before: Map<string, string>, branch: string): void {
    expect(gitDirChanges(gitDir, before, branch)).toEqual({ changed: [], added: [] });
    expect(git(desk().repo, 'status', '--porcelain')).toBe('');
  }

  it("cannot delete the person's main branch, nor lead the worktree's .git to the person's git dir", async () => {
    const before = snapshotGitDir(gitDir);
    const { report, branch } = await attack(desk(), 'delete-main', [
      { exec: 'git update-ref -d refs/heads/main && git rev-parse --verify -q main; echo "gone: $?"' },
      { exec: `git --git-dir=${gitDir} update-ref -d refs/heads/main` },
      { exec: `echo "gitdir: ${gitDir}" > .git` },
    ]);
    // Its own main went (in its own git dir); the person's git dir is not there to reach; the link is read-only.
    expect(report[0]).toMatchObject({ ok: true, output: 'gone: 1\n' });
    expect(report[1]?.ok).toBe(false);
    expect(report[2]).toMatchObject({ ok: false, error: expect.stringMatching(/Read-only file system/) });
    expectUnchanged(before, branch);
    expect(git(desk().repo, 'rev-parse', '--verify', 'main')).toMatch(/^[0-9a-f]{40}$/);
    expect(git(desk().repo, 'stash', 'list')).toContain("person's unfinished work");
  });

  it("cannot remove or overwrite the repository's objects", async () => {
    const before = snapshotGitDir(gitDir);
    const { report, branch } = await attack(desk(), 'objects', [
      { write: '/tmp/damage.js', text: DAMAGE_SCRIPT },
      { exec: `${process.execPath} /tmp/damage.js ${join(gitDir, 'objects')}` },
      { exec: `${process.execPath} /tmp/damage.js "$(git rev-parse --git-common-dir)/objects"` },
    ]);
    // The attack reached the objects and was refused there, not somewhere they are not.
    expect(report[1]?.output).toMatch(/EROFS/);
    expect(report[1]?.output).not.toMatch(/\b(removed|wrote)\b/);
    expect(git(desk().repo, 'fsck', '--no-dangling')).toBe('');
    expectUnchanged(before, branch);
  });

  it("commits, logs and diffs against main with its own git, and its commit lands on the task's branch", async () => {
    const before = snapshotGitDir(gitDir);
    const { report, commit, branch } = await attack(desk(), 'own-git', [
      { write: 'feature.txt', text: 'new feature\n' },
      { exec: `git add feature.txt && git ${ID} commit -q -m "agent: add the feature" && git log --format=%s -1` },
      { exec: 'git log --format=%s main' },
      { exec: 'git diff --stat main' },
    ]);
    expect(report.map((r) => r.ok)).toEqual([true, true, true, true]);
    expect(report[1]?.output).toBe('agent: add the feature\n');
    expect(report[2]?.output).toBe(`${git(desk().repo, 'log', '--format=%s', 'main')}\n`);
    expect(report[3]?.output).toContain('feature.txt');
    expectUnchanged(before, branch);
    expect(git(desk().repo, 'log', '--format=%s', commit).split('\n')).toContain('agent: add the feature');
    expect(JSON.stringify(await taskEvents(desk(), 'own-git'))).toContain("Took the agent's own commits");
  });

  it("keeps the agent's commits of one turn in the next turn's container, which commits on top of them", async () => {
    const d = desk();
    await attack(d, 'two-turns', [{ write: 'one.txt', text: '1\n' }, { exec: `git add one.txt && git ${ID} commit -q -m "agent: turn one"` }]);
    expect((await d.api('POST', '/tasks/two-turns/prompt', { prompt: JSON.stringify([
      { exec: 'git log --format=%s' },
      { write: 'two.txt', text: '2\n' },
      { exec: `git add two.txt && git ${ID} commit -q -m "agent: turn two"` },
    ]) })).status).toBe(202);
    await d.waitForStatus('two-turns', ['completed', 'error'], 90_000);
    const detail = (await d.api('GET', '/tasks/two-turns')).json;
    expect(detail.errorMessage).toBeUndefined();
    const report = JSON.parse(git(d.repo, 'show', `${detail.commit}:attack-report.json`)) as AttackResult[];
    expect(report[0]?.output?.split('\n')).toContain('agent: turn one');
    const subjects = git(d.repo, 'log', '--format=%s', detail.commit).split('\n');
    expect(subjects.indexOf('agent: turn two')).toBeLessThan(subjects.indexOf('agent: turn one'));
  });

  it("gives a terminal the agent opens, in a container of its own, the same git: the task's, with the person's main out of reach", async () => {
    const before = snapshotGitDir(gitDir);
    const submitted = await desk().api('POST', '/', { id: 'terminal-git', runner: 'docker', prompt: 'run git log --format=%s main; git update-ref -d refs/heads/main; echo "deleted: $?"' });
    expect(submitted.status).toBe(202);
    await desk().waitForStatus('terminal-git', ['completed', 'error'], 90_000);
    const events = JSON.stringify(await taskEvents(desk(), 'terminal-git'));
    expect(events).toContain('Initial commit');
    expect(events).toContain('deleted: 0');
    expectUnchanged(before, git(desk().repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/desk/*/terminal-git*'));
    expect(git(desk().repo, 'rev-parse', '--verify', 'main')).toMatch(/^[0-9a-f]{40}$/);
  });
});
