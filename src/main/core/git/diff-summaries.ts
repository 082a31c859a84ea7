// diffSummary remembered per pair of commits: a turn's commit is read once as it is made (the card's totals) and again
// for its attention list and its approval; commit ids never change what they name, so one git run serves them all.
import type { GitRepo, GitRunner } from './git-runner';
import { diffSummary, type DiffSummary } from './task-diff';

/** Enough for every task in review at once on a busy desk; the oldest pair goes first. */
const KEPT = 256;

export function createDiffSummaries(git: GitRunner, repoRoot: () => Promise<GitRepo>): (base: string, head: string) => Promise<DiffSummary> {
  const kept = new Map<string, Promise<DiffSummary>>();
  return (base, head) => {
    const key = `${base}..${head}`;
    const known = kept.get(key);
    if (known) return known;
    const reading = repoRoot().then((repo) => diffSummary(git, repo, base, head));
    kept.set(key, reading);
    // A failed read is not remembered: the next asks git again.
    reading.catch(() => kept.delete(key));
    if (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
    return reading;
  };
}
