// Attacks on the person's repository from inside a task, through a real agent process in the real sandbox with
// commands allowed: the agent's git works in a git dir of the task's own, and the person's refs, objects, index,
// HEAD, stash and reflogs come out byte-for-byte as they were. The desk alone brings the agent's commits over.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { git } from '../git/git-test-fixture';
import { deskPerFile, policyAllowing, scriptedAgent, taskEvents, type Desk } from '../test-support/desk-harness';
import type { Attack, AttackResult } from './test-support/hostile-agent';
import { gitDirChanges, snapshotGitDir } from './test-support/git-dir-snapshot';
import { hostileAgent, sandboxForTests } from './test-support/sandbox-for-tests';

const { skip } = await sandboxForTests();
const ID = '-c user.name=Agent -c user.email=agent@example.test';

describe.skipIf(skip)(`an agent's own git in the sandbox${skip ? ` (skipped: ${skip})` : ''}`, () => {
  // Commands allowed, as people allow them for real agents: the scripted agent's terminals run them without asking.
  const desk = deskPerFile({ agents: [scriptedAgent(), hostileAgent()], policy: policyAllowing('execute') });
  let gitDir: string;
  let unrelatedRoot: string;

  beforeAll(() => {
    const { repo } = desk();
    gitDir = join(repo, '.git');
    // What a person's repository holds besides main: another branch, a tag, a stash, a commit with no common history.
    git(repo, 'branch', 'other');
    git(repo, 'tag', '-a', 'v1', '-m', 'release');
    writeFileSync(join(repo, 'README.md'), '# Fixture, edited\n');
    git(repo, 'stash', 'push', '-q', '-m', 'person\'s unfinished work');
    git(repo, 'checkout', '-q', '--orphan', 'unrelated');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'a root of its own');
    unrelatedRoot = git(repo, 'rev-parse', 'HEAD');
    git(repo, 'checkout', '-q', '-f', 'main');
    git(repo, 'pack-refs', '--all', '--no-prune');
  });

  /** Runs the attacks as the hostile agent; returns its report, the task's commit and branch. */
  async function attack(d: Desk, id: string, attacks: Attack[]): Promise<{ report: AttackResult[]; commit: string; branch: string }> {
    const submitted = await d.api('POST', '/', { id, prompt: JSON.stringify(attacks), agent: 'hostile' });
    expect(submitted.status).toBe(202);
    await d.waitForStatus(id, ['completed', 'error']);
    const detail = (await d.api('GET', `/tasks/${id}`)).json;
    expect(detail.errorMessage).toBeUndefined();
    const report = JSON.parse(git(d.repo, 'show', `${detail.commit}:attack-report.json`)) as AttackResult[];
    return { report, commit: detail.commit, branch: git(d.repo, 'for-each-ref', '--format=%(refname:short)', `--points-at=${detail.commit}`, 'refs/heads/desk') };
  }

  /** Every file of the person's git dir by its hash (test-support/git-dir-snapshot.ts). */
  const snapshot = () => snapshotGitDir(gitDir);

  /** The person's files before as they are now, ignoring new objects and this task's branch. */
  function expectUnchanged(before: Map<string, string>, branch: string): void {
    expect(gitDirChanges(gitDir, before, branch)).toEqual({ changed: [], added: [] });
    expect(git(desk().repo, 'status', '--porcelain')).toBe('');
  }

  const common = (path: string) => `"$(git rev-parse --git-common-dir)/${path}"`;

  it('cannot delete the person\'s main branch', async () => {
    const before = snapshot();
    const { branch } = await attack(desk(), 'delete-main', [
      { exec: 'git update-ref -d refs/heads/main' },
      { exec: `git --git-dir=${gitDir} update-ref -d refs/heads/main` },
      { exec: `rm -f ${join(gitDir, 'refs/heads/main')} ${join(gitDir, 'packed-refs')}` },
    ]);
    expectUnchanged(before, branch);
    expect(git(desk().repo, 'rev-parse', '--verify', 'main')).toMatch(/^[0-9a-f]{40}$/);
  });

  it('cannot point the person\'s main at a commit of its own', async () => {
    const main = git(desk().repo, 'rev-parse', 'main');
    const before = snapshot();
    const { branch } = await attack(desk(), 'move-main', [
      { exec: `git update-ref refs/heads/main $(git ${ID} commit-tree HEAD^{tree} -m evil)` },
      { exec: `git --git-dir=${gitDir} ${ID} update-ref refs/heads/main $(git ${ID} commit-tree HEAD^{tree} -m evil)` },
    ]);
    expectUnchanged(before, branch);
    expect(git(desk().repo, 'rev-parse', 'main')).toBe(main);
  });

  it('cannot delete other branches, other tasks\' finished ones included', async () => {
    await attack(desk(), 'finished-first', [{ write: 'first.txt', text: 'done' }]);
    const before = snapshot();
    const { branch } = await attack(desk(), 'delete-others', [
      { exec: 'git for-each-ref --format="%(refname)" refs/heads refs/tags | while read ref; do git update-ref -d "$ref"; done; git for-each-ref' },
      { exec: `git --git-dir=${gitDir} for-each-ref --format="%(refname)" refs/heads | while read ref; do git --git-dir=${gitDir} update-ref -d "$ref"; done` },
    ]);
    expectUnchanged(before, branch);
    expect(git(desk().repo, 'for-each-ref', '--format=%(refname)', 'refs/heads/desk')).toContain('finished-first');
  });

  it('cannot remove or damage the objects', async () => {
    const before = snapshot();
    const { branch } = await attack(desk(), 'objects', [
      { exec: `rm -rf ${common('objects')}/* ; ls ${common('objects')}` },
      { exec: `rm -rf ${join(gitDir, 'objects')}/*` },
      { exec: `chmod -R u+w ${join(gitDir, 'objects')}; for f in $(find ${join(gitDir, 'objects')} -type f); do echo x > "$f"; done` },
    ]);
    expect(git(desk().repo, 'fsck', '--no-dangling')).toBe('');
    expectUnchanged(before, branch);
  });

  it('cannot garble the person\'s index, HEAD, packed refs, stash or reflogs', async () => {
    const before = snapshot();
    const { branch } = await attack(desk(), 'garble', [
      { exec: `echo garbage > ${common('index')}` },
      { exec: `echo garbage > ${join(gitDir, 'index')}` },
      { exec: `echo 'ref: refs/heads/evil' > ${join(gitDir, 'HEAD')}` },
      { exec: `echo garbage > ${join(gitDir, 'packed-refs')}` },
      { exec: `git --git-dir=${gitDir} stash clear; rm -f ${join(gitDir, 'refs/stash')}` },
      { exec: `git --git-dir=${gitDir} reflog expire --expire=now --all; rm -rf ${join(gitDir, 'logs')}` },
      { exec: 'git stash clear; git reflog expire --expire=now --all; echo garbage > "$(git rev-parse --git-dir)/packed-refs"' },
    ]);
    expectUnchanged(before, branch);
    expect(git(desk().repo, 'stash', 'list')).toContain('person\'s unfinished work');
    expect(git(desk().repo, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
  });

  it('is shown the person\'s branches and its own, not the other tasks\' branches', async () => {
    await attack(desk(), 'shown-first', [{ write: 'first.txt', text: 'done' }]);
    const { report, branch } = await attack(desk(), 'shown-second', [{ exec: 'git for-each-ref --format="%(refname:short)" refs/heads' }]);
    const shown = report[0]?.output?.trim().split('\n');
    expect(shown).toEqual(expect.arrayContaining(['main', 'other', branch]));
    expect(git(desk().repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/desk')).toContain('shown-first');
    expect(shown?.some((name) => name.includes('shown-first'))).toBe(false);
  });

  it('commits, logs and diffs against main with its own git, and its commit lands on the task\'s branch', async () => {
    const before = snapshot();
    const { report, commit, branch } = await attack(desk(), 'own-git', [
      { write: 'feature.txt', text: 'new feature\n' },
      { exec: `git add feature.txt && git ${ID} commit -q -m "agent: add the feature" && git log --format=%s -1` },
      { exec: 'git log --format=%s main' },
      { exec: 'git diff --stat main' },
      { exec: 'git tag mine && git branch scratch && git tag --list mine' },
    ]);
    expect(report.map((r) => r.ok)).toEqual([true, true, true, true, true]);
    expect(report[1]?.output).toBe('agent: add the feature\n');
    expect(report[2]?.output).toBe(`${git(desk().repo, 'log', '--format=%s', 'main')}\n`);
    expect(report[3]?.output).toContain('feature.txt');
    expectUnchanged(before, branch);
    expect(git(desk().repo, 'log', '--format=%s', commit).split('\n')).toContain('agent: add the feature');
    const events = JSON.stringify(await taskEvents(desk(), 'own-git'));
    expect(events).toContain('Took the agent\'s own commits');
    // The agent's tag and branch stayed in its own git dir.
    expect(git(desk().repo, 'tag', '--list', 'mine')).toBe('');
  });

  it('approving a task whose agent committed merges its commits into main', async () => {
    await attack(desk(), 'to-approve', [
      { write: 'approved.txt', text: 'yes\n' },
      { exec: `git add approved.txt && git ${ID} commit -q -m "agent: approved work"` },
    ]);
    const approved = await desk().api('POST', '/tasks/to-approve/approve');
    expect(approved.status, approved.text).toBe(200);
    expect(git(desk().repo, 'log', '--format=%s', 'main').split('\n')).toContain('agent: approved work');
    expect(git(desk().repo, 'show', 'main:approved.txt')).toBe('yes');
  });

  it('refuses an agent\'s commit that does not descend from where the turn started, and still commits its files', async () => {
    const main = git(desk().repo, 'rev-parse', 'main');
    const before = snapshot();
    const { commit, branch } = await attack(desk(), 'unrelated', [
      { exec: `git reset -q --hard ${unrelatedRoot} && echo evil > evil.txt && git add evil.txt && git ${ID} commit -q -m "agent: rewritten history"` },
    ]);
    expectUnchanged(before, branch);
    expect(git(desk().repo, 'log', '--format=%s', commit).split('\n')).not.toContain('agent: rewritten history');
    expect(git(desk().repo, 'merge-base', '--is-ancestor', main, commit)).toBe('');
    expect(git(desk().repo, 'show', `${commit}:evil.txt`)).toBe('evil');
    const logs = (await taskEvents(desk(), 'unrelated')).flatMap((event) => (event.type === 'log' ? [event.text] : []));
    expect(logs.some((text) => /own commits were not taken: .* does not descend from/.test(text))).toBe(true);
  });

  it('refuses an agent\'s commit whose objects it removed again, and still commits its files', async () => {
    const { commit } = await attack(desk(), 'incomplete', [
      { write: 'gone.txt', text: 'soon without its objects\n' },
      { exec: `git add gone.txt && git ${ID} commit -q -m "agent: incomplete" && rm -rf "$(git rev-parse --git-dir)"/objects/??` },
    ]);
    expect(git(desk().repo, 'log', '--format=%s', commit).split('\n')).not.toContain('agent: incomplete');
    expect(git(desk().repo, 'show', `${commit}:gone.txt`)).toBe('soon without its objects');
    expect(git(desk().repo, 'fsck', '--no-dangling')).toBe('');
    const logs = (await taskEvents(desk(), 'incomplete')).flatMap((event) => (event.type === 'log' ? [event.text] : []));
    expect(logs.some((text) => text.startsWith('The agent\'s own commits were not taken: git could not fetch them'))).toBe(true);
  });

  it('keeps the agent\'s commits of one turn in the next, which commits on top of them', async () => {
    const d = desk();
    await attack(d, 'two-turns', [{ write: 'one.txt', text: '1\n' }, { exec: `git add one.txt && git ${ID} commit -q -m "agent: turn one"` }]);
    expect((await d.api('POST', '/tasks/two-turns/prompt', { prompt: JSON.stringify([
      { exec: 'git log --format=%s' },
      { write: 'two.txt', text: '2\n' },
      { exec: `git add two.txt && git ${ID} commit -q -m "agent: turn two"` },
    ]) })).status).toBe(202);
    await d.waitForStatus('two-turns', ['completed', 'error']);
    const detail = (await d.api('GET', '/tasks/two-turns')).json;
    expect(detail.errorMessage).toBeUndefined();
    const report = JSON.parse(git(d.repo, 'show', `${detail.commit}:attack-report.json`)) as AttackResult[];
    // The agent sees its own commit of the first turn, under the desk's commit of that turn's leftover files.
    expect(report[0]?.output?.split('\n')).toContain('agent: turn one');
    const subjects = git(d.repo, 'log', '--format=%s', detail.commit).split('\n');
    expect(subjects.indexOf('agent: turn two')).toBeLessThan(subjects.indexOf('agent: turn one'));
  });

  it('refuses to fetch from its git dir once the agent made it borrow objects from elsewhere', async () => {
    const { report, commit } = await attack(desk(), 'led-away', [
      { exec: 'd="$(git rev-parse --git-dir)"; mv "$d/objects" "$d/objects.old" && mkdir -p "$d/objects/info" && echo "$d/objects.old" > "$d/objects/info/alternates"' },
      { write: 'led.txt', text: 'x\n' },
      { exec: `git add led.txt && git ${ID} commit -q -m "agent: led away"` },
    ]);
    expect(report.map((r) => r.ok)).toEqual([true, true, true]);
    expect(git(desk().repo, 'log', '--format=%s', commit).split('\n')).not.toContain('agent: led away');
    expect(git(desk().repo, 'show', `${commit}:led.txt`)).toBe('x');
    const logs = (await taskEvents(desk(), 'led-away')).flatMap((event) => (event.type === 'log' ? [event.text] : []));
    expect(logs.some((text) => text.includes('its git dir was made to borrow objects from elsewhere'))).toBe(true);
  });

  it('gives the terminals an agent opens the same git: the task\'s own, with the person\'s main out of reach', async () => {
    const before = snapshot();
    const submitted = await desk().api('POST', '/', { id: 'terminal-git', prompt: 'run git log --format=%s main; git update-ref -d refs/heads/main; echo "deleted: $?"' });
    expect(submitted.status).toBe(202);
    await desk().waitForStatus('terminal-git', ['completed', 'error']);
    const events = JSON.stringify(await taskEvents(desk(), 'terminal-git'));
    expect(events).toContain('Initial commit');
    expect(events).toContain('deleted: 0');
    expectUnchanged(before, git(desk().repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/desk/*/terminal-git*'));
    expect(git(desk().repo, 'rev-parse', '--verify', 'main')).toMatch(/^[0-9a-f]{40}$/);
  });
});
