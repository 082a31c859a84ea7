// The snapshot's kept `git check-ignore`: one process answers a snapshot's questions, and one that ended is replaced.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from './git-runner';
import { git, isolateGitConfig } from './git-test-fixture';
import { createSnapshotIgnoreRules } from './snapshot-ignore-rules';

let restoreConfig: () => void;
let root: string;
beforeAll(() => {
  restoreConfig = isolateGitConfig();
  root = mkdtempSync(join(tmpdir(), 'desk-snapshot-rules-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  restoreConfig();
});

/** The `git check-ignore` processes this test's process started. */
function checkIgnoreChildren(): number[] {
  const lines = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' }).split('\n');
  return lines.filter((line) => line.includes('check-ignore')).map((line) => Number(line.trim().split(/\s+/)[0]));
}

describe("a snapshot's ignore rules", () => {
  it('are answered by one kept git, and by a new one once that git has ended', async () => {
    const repo = join(root, 'repo');
    mkdirSync(join(repo, 'pkg'), { recursive: true });
    git(repo, 'init', '--quiet', '--initial-branch=main');
    writeFileSync(join(repo, '.gitignore'), '*.log\nbuild/\n');
    writeFileSync(join(repo, 'pkg', '.gitignore'), '*.tmp\n');
    writeFileSync(join(repo, 'pkg', 'a.ts'), 'a\n');
    git(repo, 'add', '--all');
    git(repo, 'commit', '--quiet', '-m', 'base');
    const snapshot = { lower: repo, commit: git(repo, 'rev-parse', 'HEAD') };
    const rules = createSnapshotIgnoreRules(createGitRunner(), join(repo, '.git'), 60_000);

    expect(await rules.ignored(snapshot, 'debug.log')).toBe(true);
    expect(await rules.ignored(snapshot, 'pkg/x.tmp')).toBe(true);
    expect(await rules.ignored(snapshot, 'x.tmp')).toBe(false);
    // A directory the snapshot lacks, asked as one.
    expect(await rules.ignored(snapshot, 'build/')).toBe(true);
    expect(await rules.ignored(snapshot, 'src/new.ts')).toBe(false);
    const kept = checkIgnoreChildren();
    expect(kept).toHaveLength(1);

    process.kill(kept[0] as number, 'SIGKILL');
    await new Promise((resolve) => { setTimeout(resolve, 100); });
    // The question that met the ended git fails (the layer's commit then asks its stand-in); the next gets a new git.
    await expect(rules.ignored(snapshot, 'debug.log')).rejects.toThrow();
    expect(await rules.ignored(snapshot, 'debug.log')).toBe(true);
    expect(checkIgnoreChildren()).toHaveLength(1);
  });
});
