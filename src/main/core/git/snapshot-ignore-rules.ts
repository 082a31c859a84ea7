// The ignore rules of a snapshot of the base as its checkout holds them, asked of one `git check-ignore --no-index`
// kept running per snapshot for a while: a layer's commit that changed no `.gitignore` along its new paths gets its
// answers without starting git (./ignore-check.ts decides when). A snapshot's files never change while it is of one
// commit, so git's own memory of the rules it read stays right; a snapshot moved to another commit is asked anew.
import { checkIgnoreArgs, checkIgnorePipe, type CheckIgnorePipe } from './check-ignore-pipe';
import { openGitPipe } from './git-pipe';
import type { GitRunner } from './git-runner';

export interface SnapshotIgnoreRules {
  /** Whether the rules of the snapshot `lower` (a checkout of `commit`) ignore `path`; a trailing `/` asks about a directory. */
  ignored(snapshot: { lower: string; commit: string }, path: string): Promise<boolean>;
}

/** Long enough for the next turn's commit of a busy desk, short enough that an idle one keeps no git. */
const IDLE_MS = 30_000;

/** `commonDir`: the repository's, whose `info/exclude` applies. */
export function createSnapshotIgnoreRules(git: GitRunner, commonDir: string, idleMs = IDLE_MS): SnapshotIgnoreRules {
  const running = new Map<string, { pipe: CheckIgnorePipe; idle: NodeJS.Timeout }>();
  const pipeFor = (key: string, lower: string): CheckIgnorePipe => {
    const kept = running.get(key);
    if (kept) {
      kept.idle.refresh();
      return kept.pipe;
    }
    const pipe = checkIgnorePipe(() => openGitPipe(git, { gitDir: commonDir, commonDir, workTree: lower }, checkIgnoreArgs(false), { cwd: lower }));
    const idle = setTimeout(() => {
      running.delete(key);
      void pipe.end();
    }, idleMs);
    idle.unref();
    running.set(key, { pipe, idle });
    return pipe;
  };
  return {
    async ignored({ lower, commit }, path) {
      const key = `${commit}\0${lower}`;
      const pipe = pipeFor(key, lower);
      const answer = pipe.ask(path).catch((error: unknown) => {
        // A git that ended (killed, its snapshot gone) is forgotten: the next question starts another.
        const kept = running.get(key);
        if (kept?.pipe === pipe) {
          clearTimeout(kept.idle);
          running.delete(key);
        }
        throw error;
      });
      // Kept for later questions, it must not keep the desk from ending.
      await pipe.unref();
      return answer;
    },
  };
}
