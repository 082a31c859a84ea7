// A task's worktree as a copy-on-write layer over a shared snapshot of its base (issue 41), end to end through the real
// sandbox, the real scripted agent and real git: every kind of change is committed exactly, the worktree's folder on
// disk holds nothing but its `.git` link (the files are the snapshot's and the layer's), two tasks from one snapshot
// never see each other's writes, a follow-up and a restart continue from the layer, and the person's repository is
// untouched.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git } from '../git/git-test-fixture';
import { desksPerTest, policyAllowing, startDesk, taskEvents, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();
const sandboxed = existsSync('/usr/bin/bwrap') || process.env.DESK_REQUIRE_SANDBOX === '1';

const FILES = {
  'README.md': '# Fixture\n',
  'src/keep.ts': 'export const keep = 1;\n',
  'src/old.ts': 'export const old = 1;\n',
  'src/gone/a.txt': 'a\n',
  'src/gone/b.txt': 'b\n',
  'tool.sh': '#!/bin/sh\necho tool\n',
  'was-file': 'a file\n',
  'was-dir/inner.txt': 'inner\n',
  'replaced/old.txt': 'old\n',
  '.gitignore': 'node_modules/\n*.log\n',
};

const show = (d: Desk, spec: string) => git(d.repo, 'show', spec);
const treeOf = (d: Desk, commit: string) => git(d.repo, 'ls-tree', '-r', '--format=%(objectmode) %(path)', commit).split('\n').sort();
async function taskOf(d: Desk, id: string) {
  return (await d.api('GET', `/tasks/${id}`)).json as { status: string; commit?: string; worktreePath: string; errorMessage?: string };
}
/** Every file below `dir` (none when it is missing). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}
async function logOf(d: Desk, id: string): Promise<string> {
  return (await taskEvents(d, id)).map((event) => ('text' in event ? event.text : JSON.stringify(event))).join('\n');
}

describe.skipIf(!sandboxed)('a worktree that is a layer over a snapshot of the base', () => {
  it('commits every kind of change exactly, and its folder on disk holds only the link to the repository', async () => {
    const d = await openDesk({ files: FILES, layers: 'always', policy: policyAllowing('execute', 'edit', 'delete') });
    const personHead = git(d.repo, 'rev-parse', 'HEAD');
    const script = [
      'write src/new.ts export const created = 1;',
      'write src/keep.ts export const keep = 2;',
      'run rm src/old.ts && rm -r src/gone && chmod +x tool.sh && ln -s src/keep.ts link-to-keep'
        + ' && rm was-file && mkdir was-file && echo now-dir > was-file/x.txt'
        + ' && rm -r was-dir && echo now-file > was-dir'
        + ' && rm -r replaced && mkdir replaced && echo new > replaced/new.txt'
        + ' && mkdir -p empty/dir && mkdir -p node_modules/pkg && echo ignored > node_modules/pkg/i.js && echo log > debug.log'
        + " && printf '\\000\\001binary' > blob.bin && git mv README.md README2.md",
    ].join('\n');
    expect((await d.api('POST', '/', { id: 'kinds', prompt: script })).status).toBe(202);
    expect(await d.waitForStatus('kinds', ['completed', 'error'])).toBe('completed');
    const task = await taskOf(d, 'kinds');
    expect(await logOf(d, 'kinds')).toContain('copy-on-write layer over the snapshot of main');

    expect(treeOf(d, task.commit as string)).toEqual([
      '100644 .gitignore', '100644 README2.md', '100644 blob.bin', '120000 link-to-keep', '100644 replaced/new.txt',
      '100644 src/keep.ts', '100644 src/new.ts', '100755 tool.sh', '100644 was-dir', '100644 was-file/x.txt',
    ].sort());
    expect(show(d, `${task.commit}:src/keep.ts`)).toBe('export const keep = 2;');
    expect(show(d, `${task.commit}:link-to-keep`)).toBe('src/keep.ts');
    expect(show(d, `${task.commit}:was-dir`)).toBe('now-file');
    expect(git(d.repo, 'cat-file', '-s', `${task.commit}:blob.bin`)).toBe('8');
    // What the worktree's folder holds on disk: the link, nothing of the files.
    expect(readdirSync(task.worktreePath)).toEqual(['.git']);
    // The person's checkout and branch are as they were.
    expect(git(d.repo, 'status', '--porcelain')).toBe('');
    expect(git(d.repo, 'rev-parse', 'HEAD')).toBe(personHead);
  });

  it("keeps two tasks from one snapshot apart, and a follow-up sees its own task's files and commits on top", async () => {
    const d = await openDesk({ files: FILES, layers: 'always', policy: policyAllowing('execute', 'edit', 'delete') });
    await d.api('POST', '/', { id: 'one', prompt: 'write shared.txt from one\nwrite only-one.txt 1' });
    await d.waitForStatus('one', 'completed');
    await d.api('POST', '/', { id: 'two', prompt: 'run test ! -e only-one.txt && test "$(cat README.md)" = "# Fixture" && echo clean > two.txt' });
    expect(await d.waitForStatus('two', ['completed', 'error'])).toBe('completed');
    const two = await taskOf(d, 'two');
    expect(show(d, `${two.commit}:two.txt`)).toBe('clean');

    const first = (await taskOf(d, 'one')).commit as string;
    expect((await d.api('POST', '/tasks/one/prompt', { prompt: 'run cat only-one.txt > copy.txt && git status --porcelain > status.txt' })).status).toBe(202);
    await d.waitForStatus('one', 'in-progress');
    expect(await d.waitForStatus('one', ['completed', 'error'])).toBe('completed');
    const followUp = (await taskOf(d, 'one')).commit as string;
    expect(git(d.repo, 'rev-parse', `${followUp}^`)).toBe(first);
    expect(show(d, `${followUp}:copy.txt`)).toBe('1');
    // The agent's git saw the first turn's work as committed: only the files of this turn are new to it.
    expect(show(d, `${followUp}:status.txt`)).toBe('?? copy.txt\n?? status.txt');
  });

  it("lends the snapshot's shared index read-only: an agent writing into it changes nothing the next task reads", async () => {
    const d = await openDesk({ files: FILES, layers: 'always', policy: policyAllowing('execute', 'edit', 'delete') });
    // Every shared index the desk keeps, by path, with what it holds: the snapshot's and each worktree's (hard links).
    const sharedIndexes = () => new Map(filesUnder(d.dataDir).concat(filesUnder(join(d.repo, '.git', 'worktrees')))
      .filter((path) => /\/sharedindex\.[0-9a-f]+$/.test(path)).map((path) => [path, readFileSync(path).toString('hex')]));
    const attack = [
      'run for f in "$(git rev-parse --git-dir)"/sharedindex.*; do (printf poisoned > "$f") 2>/dev/null && echo written >> attack.txt || echo refused >> attack.txt; done',
      'run echo changed > README.md && git add -A 2> add-errors.txt && git status --porcelain > status.txt 2>> add-errors.txt',
    ].join('\n');
    expect((await d.api('POST', '/', { id: 'attacker', prompt: attack })).status).toBe(202);
    expect(await d.waitForStatus('attacker', ['completed', 'error'])).toBe('completed');
    const before = sharedIndexes();
    expect(before.size).toBeGreaterThan(0);
    const attacker = await taskOf(d, 'attacker');
    expect(show(d, `${attacker.commit}:attack.txt`)).toBe('refused');
    // The agent's own git reads the lent index and writes its own, without a word.
    expect(show(d, `${attacker.commit}:add-errors.txt`)).toBe('');
    expect(show(d, `${attacker.commit}:status.txt`)).toBe('M  README.md\nA  add-errors.txt\nA  attack.txt\n?? status.txt');
    for (const [path, held] of before) expect(Buffer.from(held, 'hex').subarray(-20).toString('hex'), path).toBe(path.slice(path.lastIndexOf('.') + 1));

    await d.api('POST', '/', { id: 'next', prompt: 'run git status --porcelain > status.txt && cat README.md > seen.txt' });
    expect(await d.waitForStatus('next', ['completed', 'error'])).toBe('completed');
    const next = await taskOf(d, 'next');
    expect(show(d, `${next.commit}:status.txt`)).toBe('?? status.txt');
    expect(show(d, `${next.commit}:seen.txt`)).toBe('# Fixture');
  });

  it("leaves the index to what runs next in the worktree: the commit reads none, a check's and a follow-up's git see the branch", async () => {
    const d = await openDesk({ files: FILES, layers: 'always', policy: policyAllowing('execute', 'edit', 'delete') });
    await d.api('POST', '/', { id: 'lazy', prompt: 'write a.txt 1\nwrite src/keep.ts export const keep = 2;' });
    expect(await d.waitForStatus('lazy', ['completed', 'error'])).toBe('completed');
    const first = await taskOf(d, 'lazy');
    // The commit left the index as the turn left it: it still lacks the new file the branch now has.
    const gitDir = readFileSync(join(first.worktreePath, '.git'), 'utf8').trim().replace(/^gitdir:\s*/, '');
    expect(git(d.repo, `--git-dir=${gitDir}`, 'diff-index', '--cached', '--name-only', 'HEAD')).toBe('a.txt\nsrc/keep.ts');

    await d.api('POST', '/tasks/lazy/prompt', { prompt: 'run echo y >> a.txt && git status --porcelain > status.txt && git diff --cached --name-only > staged.txt' });
    await d.waitForStatus('lazy', 'in-progress');
    expect(await d.waitForStatus('lazy', ['completed', 'error'])).toBe('completed');
    const second = (await taskOf(d, 'lazy')).commit as string;
    // Before the turn the index was brought to the branch: nothing staged, only this turn's changes.
    expect(show(d, `${second}:status.txt`)).toBe(' M a.txt\n?? status.txt');
    expect(show(d, `${second}:staged.txt`)).toBe('');
    expect(show(d, `${second}:a.txt`)).toBe('1\ny');

    // A check runs right after the commit, in the worktree: its git sees the committed work as committed.
    const c = await openDesk({ files: { ...FILES, '.desk/config.json': JSON.stringify({ check: 'git status --porcelain; test -z "$(git status --porcelain)"' }) }, layers: 'always', policy: policyAllowing('execute', 'edit', 'delete') });
    await c.api('POST', '/', { id: 'checked', prompt: 'write b.txt 2\nwrite src/keep.ts export const keep = 3;' });
    expect(await c.waitForStatus('checked', ['completed', 'error'])).toBe('completed');
    const checked = (await c.api('GET', '/tasks/checked')).json as { check?: { status: string; outputTail: string } };
    expect(checked.check).toMatchObject({ status: 'passed', outputTail: '' });
  });

  it('is chosen by itself for a repository whose tasks would copy a folder, which the snapshot then holds once for all', async () => {
    const d = await openDesk({ files: { ...FILES, '.desk/config.json': '{"copy": ["node_modules"]}' }, policy: policyAllowing('execute', 'edit', 'delete') });
    mkdirSync(join(d.repo, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(d.repo, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    await d.api('POST', '/', { id: 'deps', prompt: 'run cat node_modules/dep/index.js > seen.txt && echo changed > node_modules/dep/index.js' });
    expect(await d.waitForStatus('deps', ['completed', 'error'])).toBe('completed');
    const task = await taskOf(d, 'deps');
    expect(await logOf(d, 'deps')).toContain('copy-on-write layer over the snapshot of main');
    expect(show(d, `${task.commit}:seen.txt`)).toBe('module.exports = 1;');
    // The copied folder is ignored: the task's change to it is not part of its commit, and the person's copy is as it was.
    expect(treeOf(d, task.commit as string)).not.toContain('100644 node_modules/dep/index.js');
    expect(readFileSync(join(d.repo, 'node_modules', 'dep', 'index.js'), 'utf8')).toBe('module.exports = 1;\n');
  });

  it('is a checkout of its own for a small repository with nothing to copy, as before', async () => {
    const d = await openDesk({ files: FILES });
    await d.api('POST', '/', { id: 'small', prompt: 'write small.txt yes' });
    await d.waitForStatus('small', 'completed');
    expect(await logOf(d, 'small')).not.toContain('copy-on-write layer');
    expect(readdirSync((await taskOf(d, 'small')).worktreePath)).toContain('README.md');
  });

  it('gives a task started after the base moved the new base, while a task in review keeps its own', async () => {
    const d = await openDesk({ files: FILES, layers: 'always', policy: policyAllowing('execute', 'edit', 'delete') });
    await d.api('POST', '/', { id: 'before', prompt: 'write before.txt 1' });
    await d.waitForStatus('before', 'completed');
    commitFiles(d.repo, { 'README.md': '# Moved on\n' }, 'the base moves');
    await d.api('POST', '/', { id: 'after', prompt: 'run cat README.md > seen.txt' });
    expect(await d.waitForStatus('after', ['completed', 'error'])).toBe('completed');
    expect(show(d, `${(await taskOf(d, 'after')).commit}:seen.txt`)).toBe('# Moved on');
    // The task in review still works on the base it started from.
    await d.api('POST', '/tasks/before/prompt', { prompt: 'run cat README.md > seen.txt' });
    await d.waitForStatus('before', 'in-progress');
    expect(await d.waitForStatus('before', ['completed', 'error'])).toBe('completed');
    expect(show(d, `${(await taskOf(d, 'before')).commit}:seen.txt`)).toBe('# Fixture');
    expect(readdirSync(join(d.dataDir, 'snapshots'), { recursive: true }).filter((name) => String(name).endsWith('snapshot.json'))).toHaveLength(2);
  });

  it('runs a task the desk stopped mid-turn again at the next start, in a layer of its own', async () => {
    const first = await startDesk({ files: FILES, layers: 'always', policy: policyAllowing('execute', 'edit', 'delete') });
    await first.api('POST', '/', { id: 'midway', prompt: 'write early.txt 1\nsleep 4000\nwrite late.txt 2' });
    await first.waitForStatus('midway', 'in-progress');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await first.close();

    const d = await openDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir }, layers: 'always', policy: policyAllowing('execute', 'edit', 'delete') });
    expect(await d.waitForStatus('midway', ['completed', 'error'], 30_000)).toBe('completed');
    const commit = (await taskOf(d, 'midway')).commit as string;
    expect(show(d, `${commit}:late.txt`)).toBe('2');
    expect(readdirSync(join(d.dataDir, 'task-layers')).filter((name) => !name.startsWith('.'))).toHaveLength(1);
  });

  it('refuses a follow-up once the policy turns the sandbox off, saying why and what to do, and keeps the work', async () => {
    const first = await startDesk({ files: FILES, layers: 'always' });
    await first.api('POST', '/', { id: 'boxed', prompt: 'write kept.txt kept' });
    await first.waitForStatus('boxed', 'completed');
    const committed = (await taskOf(first, 'boxed')).commit;
    await first.close();

    const d = await openDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir }, layers: 'always', policy: { version: 1, defaults: { sandbox: 'off' } } });
    await d.api('POST', '/tasks/boxed/prompt', { prompt: 'write more.txt more' });
    expect(await d.waitForStatus('boxed', ['error', 'completed'])).toBe('error');
    const task = await taskOf(d, 'boxed');
    expect(task.errorMessage).toMatch(/copy-on-write layer, which only a sandboxed run can enter, and the policy now turns the sandbox off/);
    expect(git(d.repo, 'rev-parse', `${(await d.api('GET', '/tasks/boxed')).json.branch}`)).toBe(committed);
  });

  it('ends a task whose layer could not be made in error, leaving no holder, layer or lease of it behind', async () => {
    const d = await openDesk({ files: FILES, layers: 'always', policy: policyAllowing('execute', 'edit', 'delete') });
    await d.api('POST', '/', { id: 'made', prompt: 'write made.txt one' });
    expect(await d.waitForStatus('made', ['completed', 'error'])).toBe('completed');
    // The snapshot loses the index a new task's git dir links to: the next task's layer is made, its holder started,
    // and then its index cannot be linked.
    const snapshots = join(d.dataDir, 'snapshots');
    const [snapshot] = readdirSync(snapshots).flatMap((key) => readdirSync(join(snapshots, key)).filter((name) => /^[0-9a-f]{40}$/.test(name)).map((name) => join(snapshots, key, name)));
    rmSync(join(snapshot as string, 'git', 'index'));

    await d.api('POST', '/', { id: 'broken', prompt: 'write broken.txt two' });
    expect(await d.waitForStatus('broken', ['completed', 'error'])).toBe('error');
    const worktree = join(d.dataDir, 'worktrees');
    const holders = () => readdirSync('/proc').filter((pid) => /^\d+$/.test(pid)).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('broken');
      } catch {
        return false;
      }
    });
    // The holder is stopped with the layer: allow it its moment to exit.
    for (let waited = 0; holders().length > 0 && waited < 2_000; waited += 50) await new Promise((done) => setTimeout(done, 50));
    expect(holders()).toEqual([]);
    const layerFiles = readdirSync(join(d.dataDir, 'task-layers')).filter((name) => !name.startsWith('.')).map((name) => readFileSync(join(d.dataDir, 'task-layers', name, 'layer.json'), 'utf8'));
    expect(layerFiles.filter((text) => text.includes('"broken"'))).toEqual([]);
    expect(layerFiles.filter((text) => text.includes('"made"'))).toHaveLength(1);
    expect(readdirSync(join(snapshot as string, 'leases')).map((name) => readFileSync(join(snapshot as string, 'leases', name), 'utf8'))).toEqual(['made']);
    expect(existsSync(worktree) ? filesUnder(worktree).filter((file) => file.includes('broken')) : []).toEqual([]);
  });

  it('continues from the layer after the desk restarts, and the retired task leaves no layer behind', async () => {
    const first = await startDesk({ files: FILES, layers: 'always', policy: policyAllowing('execute', 'edit', 'delete') });
    await first.api('POST', '/', { id: 'kept', prompt: 'write kept.txt before' });
    await first.waitForStatus('kept', 'completed');
    await first.close();

    const d = await openDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir }, layers: 'always', policy: policyAllowing('execute', 'edit', 'delete') });
    expect((await d.api('POST', '/tasks/kept/prompt', { prompt: 'run cat kept.txt > again.txt' })).status).toBe(202);
    await d.waitForStatus('kept', 'in-progress');
    expect(await d.waitForStatus('kept', ['completed', 'error'])).toBe('completed');
    expect(show(d, `${(await taskOf(d, 'kept')).commit}:again.txt`)).toBe('before');

    const layers = join(d.dataDir, 'task-layers');
    expect(readdirSync(layers).filter((name) => !name.startsWith('.'))).toHaveLength(1);
    expect((await d.api('POST', '/tasks/kept/reject', {})).status).toBe(200);
    expect(readdirSync(layers).filter((name) => !name.startsWith('.'))).toHaveLength(0);
  });
});
