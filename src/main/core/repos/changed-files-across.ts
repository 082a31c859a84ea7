// The files a task's commits changed, for a desk of several repositories: each question goes to the repository that
// holds the commit (the default first), which is remembered, since a commit never moves.
import { createChangedFiles, type ChangedFiles } from '../git/changed-files';

const REMEMBERED = 5000;

/** `roots`: the open repositories' top levels, the default first, asked anew each time (repositories come and go). */
export function changedFilesAcross(roots: () => readonly string[], open: (root: string) => ChangedFiles = createChangedFiles): ChangedFiles {
  const byRoot = new Map<string, ChangedFiles>();
  const homeOf = new Map<string, string>();
  const filesOf = (root: string): ChangedFiles => {
    let files = byRoot.get(root);
    if (!files) byRoot.set(root, (files = open(root)));
    return files;
  };

  /** Asks the repository known to hold `commit`, else each in turn; the last one's failure is the answer. */
  async function ask<T>(commit: string, question: (files: ChangedFiles) => Promise<T>, found: (answer: T) => boolean = () => true): Promise<T> {
    const known = homeOf.get(commit);
    const order = known !== undefined ? [known, ...roots().filter((root) => root !== known)] : [...roots()];
    let failure: unknown;
    let last: { answer: T } | undefined;
    for (const root of order) {
      try {
        const answer = await question(filesOf(root));
        last = { answer };
        if (!found(answer)) continue;
        if (homeOf.size >= REMEMBERED) homeOf.delete(homeOf.keys().next().value as string);
        homeOf.set(commit, root);
        return answer;
      } catch (error) {
        failure ??= error;
      }
    }
    if (last) return last.answer;
    throw failure;
  }

  return {
    between: (base, head) => ask(head, (files) => files.between(base, head)),
    ofCommit: (commit) => ask(commit, (files) => files.ofCommit(commit)),
    read: (commit, path) => ask(commit, (files) => files.read(commit, path), (answer) => answer !== undefined),
  };
}
