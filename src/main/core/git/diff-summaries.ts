// diffSummary remembered per pair of commits: a turn's commit is read once as it is made (the card's totals) and again
// for its attention list and its approval; commit ids never change what they name, so one git run serves them all, and
// none when the commit's own output said what it changed (seed, from commit-all.ts).
import type { GitRepo, GitRunner } from './git-runner';
import { diffSummary, type DiffSummary } from './task-diff';

/** Enough for every task in review at once on a busy desk; the oldest pair goes first. */
const KEPT = 256;

export interface DiffSummaries {
  /** The summary of `head` against `base` (full commit ids): remembered, or read by one git run. */
  read(base: string, head: string): Promise<DiffSummary>;
  /** Remembers a summary known without git's diff (what `git commit` printed as it made `head` on `base`). */
  seed(base: string, head: string, summary: DiffSummary): void;
}

export function createDiffSummaries(git: GitRunner, repoRoot: () => Promise<GitRepo>): DiffSummaries {
  const kept = new Map<string, Promise<DiffSummary>>();
  const keep = (key: string, summary: Promise<DiffSummary>): void => {
    kept.set(key, summary);
    if (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
  };
  return {
    read(base, head) {
      const key = `${base}..${head}`;
      const known = kept.get(key);
      if (known) return known;
      const reading = repoRoot().then((repo) => diffSummary(git, repo, base, head));
      keep(key, reading);
      // A failed read is not remembered: the next asks git again.
      reading.catch(() => kept.delete(key));
      return reading;
    },
    seed(base, head, summary) {
      keep(`${base}..${head}`, Promise.resolve(summary));
    },
  };
}
