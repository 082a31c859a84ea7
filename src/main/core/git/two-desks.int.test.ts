// Two desks (separate data dirs) on one repository run tasks with the same ids side by side, and neither
// deletes or moves the other's branches, also when a task is run again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, startDesk, type Desk } from '../test-support/desk-harness';
import { git, isolateGitConfig } from './git-test-fixture';

describe('two desks on one repository', () => {
  let restoreGit: () => void;
  let root: string;
  const desks: (Desk & { root: string })[] = [];
  beforeAll(() => { restoreGit = isolateGitConfig(); });
  afterAll(async () => {
    for (const desk of desks) await desk.close();
    rmSync(root, { recursive: true, force: true });
    restoreGit();
  });

  it('run the same task id each on a branch of its own, and a re-run on one leaves the other\'s work alone', async () => {
    root = mkdtempSync(join(tmpdir(), 'desk-two-'));
    const repo = makeRepo(root);
    const first = await startDesk({ reuse: { root, repo, dataDir: join(root, 'first') } });
    desks.push(first);
    const second = await startDesk({ reuse: { root, repo, dataDir: join(root, 'second') } });
    desks.push(second);

    for (const [desk, text] of [[first, 'from the first desk'], [second, 'from the second desk']] as const) {
      expect((await desk.api('POST', '/', { id: 'same', prompt: `write note.txt ${text}` })).status).toBe(202);
    }
    await Promise.all([first.waitForStatus('same', 'completed'), second.waitForStatus('same', 'completed')]);
    const [a, b] = await Promise.all([first.api('GET', '/tasks/same'), second.api('GET', '/tasks/same')]).then((r) => r.map((x) => x.json));
    expect(a.branch).not.toBe(b.branch);
    expect(git(repo, 'show', `${a.branch}:note.txt`)).toBe('from the first desk');
    expect(git(repo, 'show', `${b.branch}:note.txt`)).toBe('from the second desk');

    // Running it again on the first desk archives the first desk's branch only.
    await first.api('POST', '/', { id: 'same', prompt: 'write note.txt again' });
    await first.waitForStatus('same', 'completed');
    expect(git(repo, 'rev-parse', b.branch)).toBe(b.commit);
    expect(git(repo, 'show', `${b.branch}:note.txt`)).toBe('from the second desk');
  });
});
