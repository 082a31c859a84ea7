// One `git check-ignore --stdin -z --verbose --non-matching` asked path after path: started on the first question, its
// answers read in the order the questions were written.
import type { GitPipe } from './git-pipe';

export interface CheckIgnorePipe {
  /** Whether the rules ignore `path` (latin1, relative to the work tree's top; a trailing `/` asks about a directory). */
  ask(path: string): Promise<boolean>;
  /** Closes git's input: every answer has been read, so its exit (1 when nothing asked about is ignored) is not waited for. */
  end(): Promise<void>;
  /** Lets the desk's process end while this git waits for more questions. */
  unref(): Promise<void>;
}

export function checkIgnorePipe(open: () => Promise<GitPipe>): CheckIgnorePipe {
  let pipe: Promise<GitPipe> | undefined;
  let answered: Promise<unknown> = Promise.resolve();
  const answerOf = async (batch: GitPipe): Promise<boolean> => {
    // `<source>\0<line>\0<pattern>\0<path>\0` for every path; an empty source when nothing matched, a pattern starting
    // with `!` when the last match re-includes it.
    const source = await batch.readUntil(0);
    await batch.readUntil(0);
    const pattern = await batch.readUntil(0);
    await batch.readUntil(0);
    return source.length > 0 && pattern[0] !== 0x21;
  };
  return {
    async ask(path) {
      pipe ??= open();
      const batch = await pipe;
      batch.write(Buffer.concat([Buffer.from(path, 'latin1'), Buffer.from([0])]));
      const answer = answered.then(() => answerOf(batch), () => answerOf(batch));
      answered = answer;
      return answer;
    },
    async end() {
      const batch = await pipe?.catch(() => undefined);
      batch?.end();
    },
    async unref() {
      const batch = await pipe?.catch(() => undefined);
      batch?.unref();
    },
  };
}

/** git's arguments for it; `--no-index` leaves the index out (git reads an index whole). */
export function checkIgnoreArgs(withIndex: boolean): string[] {
  return ['check-ignore', '--stdin', '-z', '--verbose', '--non-matching', ...(withIndex ? [] : ['--no-index'])];
}
