// The snapshot of the person's branches, tags and remote-tracking branches that a task's git dir is made from: read
// from git's ref files where they answer exactly as git would, so a task usually starts no git process for it; git is
// asked for the rest. What an object dereferences to never changes (its name is its content), so it is remembered.
import { join } from 'node:path';
import type { GitRunner } from './git-runner';
import { looseDeref } from './loose-object';
import { readRefFiles, type LooseRefMemory } from './ref-files';
import { shownToTask, snapshotFromFiles, type HiddenTaskBranches } from './ref-snapshot-text';
import { REF_SNAPSHOT_FORMAT, REF_SNAPSHOT_PATTERNS } from './task-git-dir-plan';

export interface RefSnapshots {
  /**
   * `git for-each-ref --format=REF_SNAPSHOT_FORMAT REF_SNAPSHOT_PATTERNS` of the repository, without its last newline
   * and without the lines of `hidden`'s refs.
   */
  read(commonDir: string, hidden?: HiddenTaskBranches): Promise<string>;
}

/** Objects remembered at most; past this the memory starts again (git is asked again, once). */
const REMEMBERED_MAX = 100_000;
const OBJECT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** A snapshot line's ref name: what follows its second space (REF_SNAPSHOT_FORMAT). */
const refNameOf = (line: string) => line.slice(line.indexOf(' ', line.indexOf(' ') + 1) + 1);

/** `git`: a runner with hooks off (the desk's own), for what the files cannot answer. */
export function createRefSnapshots(git: GitRunner): RefSnapshots {
  // Object name → what `%(*objectname)` shows for it: the tagged object, or null for an object that is no tag.
  const derefs = new Map<string, string | null>();
  // The loose refs' texts, kept while their files stay the same (./ref-files.ts).
  const looseRefs: LooseRefMemory = new Map();
  const remember = (object: string, deref: string | null) => {
    if (derefs.size >= REMEMBERED_MAX) derefs.clear();
    derefs.set(object, deref);
  };

  const askGit = async (commonDir: string, learn: boolean, hidden: HiddenTaskBranches | undefined): Promise<string> => {
    const listed = await git.run({ gitDir: commonDir }, ['for-each-ref', `--format=${REF_SNAPSHOT_FORMAT}`, ...REF_SNAPSHOT_PATTERNS]);
    // Left out here, not by git: `for-each-ref --exclude` came with git 2.42.
    const text = hidden === undefined ? listed : listed.split('\n').filter((line) => shownToTask(refNameOf(line), hidden)).join('\n');
    if (learn) {
      for (const line of text.split('\n')) {
        const [object, deref] = line.split(' ');
        if (object !== undefined && OBJECT.test(object) && (deref === '' || OBJECT.test(deref ?? ''))) remember(object, deref || null);
      }
    }
    return text;
  };

  return {
    async read(commonDir, hidden) {
      const read = readRefFiles(commonDir, looseRefs, Date.now(), hidden);
      // Git's answer is remembered only where the files were the plain kind: with objects replaced, it is not universal.
      if (read.kind === 'ask-git') return askGit(commonDir, false, hidden);
      const known = (object: string) => derefs.get(object);
      let snapshot = snapshotFromFiles(read.files, known, hidden);
      if (snapshot.kind === 'unknown') {
        // Usually a commit the desk or a person made since: a loose object, whose first bytes say.
        const objectsDir = join(commonDir, 'objects');
        const found = await Promise.all(snapshot.objects.map(async (object) => [object, await looseDeref(objectsDir, object)] as const));
        for (const [object, deref] of found) if (deref !== undefined) remember(object, deref);
        snapshot = snapshotFromFiles(read.files, known, hidden);
      }
      if (snapshot.kind === 'ask-git') return askGit(commonDir, false, hidden);
      for (const object of snapshot.untagged) remember(object, null);
      return snapshot.kind === 'text' ? snapshot.text : askGit(commonDir, true, hidden);
    },
  };
}
