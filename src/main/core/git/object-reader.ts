// Reads objects from one `git cat-file --batch` process: every tree a layer's commit needs from the base, and the head
// commit, through one process however many there are.
import { openGitPipe, type GitPipe } from './git-pipe';
import type { GitRepo, GitRunner } from './git-runner';
import type { KnownObjects } from './known-objects';
import { readLooseObject, type GitObject } from './tree-object';

export type { GitObject } from './tree-object';

export interface ObjectReader {
  /** The object `spec` names (an object name or a full ref name: no newline), or undefined when there is none. */
  read(spec: string): Promise<GitObject | undefined>;
  /** Lets git go: every answer has been read, so its exit is not waited for. */
  close(): Promise<void>;
}

const FULL_NAME = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Started on the first read: a layer that changed nothing reads nothing. An object asked for by its full name is read
 * by the desk when it is loose (the desk's own commits are), and with `known`, trees and commits come from there when
 * it has them and go there once read.
 */
export function createObjectReader(git: GitRunner, repo: GitRepo, known?: KnownObjects): ObjectReader {
  let pipe: Promise<GitPipe> | undefined;
  // Questions are written as they come; answers are parsed one after the other, in the same order.
  let answered: Promise<unknown> = Promise.resolve();
  const objectsDir = `${repo.commonDir ?? repo.gitDir}/objects`;
  const read = async (spec: string): Promise<GitObject | undefined> => {
    if (!FULL_NAME.test(spec)) return readByGit(spec);
    const kept = known?.get(spec);
    if (kept) return kept;
    const loose = await readLooseObject(objectsDir, spec);
    const object = loose ? { sha: spec, ...loose } : await readByGit(spec);
    if (object?.sha === spec && (object.type === 'tree' || object.type === 'commit')) known?.add(object);
    return object;
  };
  const readByGit = async (spec: string): Promise<GitObject | undefined> => {
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
