// Reads objects from one `git cat-file --batch` process: every tree a layer's commit needs from the base, and the head
// commit, through one process however many there are.
import { openGitPipe, type GitPipe } from './git-pipe';
import type { GitRepo, GitRunner } from './git-runner';

export interface GitObject { sha: string; type: string; body: Buffer }

export interface ObjectReader {
  /** The object `spec` names (an object name or a full ref name: no newline), or undefined when there is none. */
  read(spec: string): Promise<GitObject | undefined>;
  /** Lets git go: every answer has been read, so its exit is not waited for. */
  close(): Promise<void>;
}

/** Started on the first read: a layer that changed nothing reads nothing. */
export function createObjectReader(git: GitRunner, repo: GitRepo): ObjectReader {
  let pipe: Promise<GitPipe> | undefined;
  // Questions are written as they come; answers are parsed one after the other, in the same order.
  let answered: Promise<unknown> = Promise.resolve();
  const read = async (spec: string): Promise<GitObject | undefined> => {
    if (/[\n\0]/.test(spec)) throw new Error(`cannot read the object ${JSON.stringify(spec)}: its name holds a newline`);
    pipe ??= openGitPipe(git, { gitDir: repo.gitDir, ...(repo.commonDir !== undefined && { commonDir: repo.commonDir }) }, ['cat-file', '--batch']);
    const batch = await pipe;
    batch.write(Buffer.from(`${spec}\n`, 'latin1'));
    const answer = answered.then(() => answerOf(batch), () => answerOf(batch));
    answered = answer;
    return answer;
  };
  const answerOf = async (batch: GitPipe): Promise<GitObject | undefined> => {
    const header = (await batch.readUntil(0x0a)).toString('latin1');
    // `<sha> <type> <size>`, or `<spec> missing` / `<spec> ambiguous`.
    const fields = header.split(' ');
    if (fields.length !== 3) return undefined;
    const [sha, type, size] = fields as [string, string, string];
    const body = await batch.read(Number(size));
    await batch.read(1);
    return { sha, type, body };
  };
  return {
    read,
    async close() {
      if (!pipe) return;
      const batch = await pipe.catch(() => undefined);
      batch?.end();
    },
  };
}
