// The shell around ./state-files.ts: fills a task's scratch directories before its sandbox starts (mount points
// for the person's entries, their symbolic links, the agent's state files) and, when the run ends, keeps the state
// files the agent changed in the task's own layer (and a login file in the person's home too).
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, lstat, mkdir, readFile, readlink, realpath, rename, rm, stat as statOf, symlink, writeFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scratchCopyOf, type DirEntry, type ScratchPlan } from './state-files';
import { isDiskFull } from '../host/disk-full';

/** A state file larger than this is not copied back: no agent's settings file is, and the home is the person's. */
const MAX_STATE_FILE_BYTES = 16 * 1024 * 1024;

/** What each state file held before the task, so only a file the agent changed is copied back. */
export type StateSnapshot = ReadonlyMap<string, string | undefined>;

/** The entries of a directory on the host, as the plan needs them; none when it cannot be read. */
export function hostEntriesOf(dir: string): DirEntry[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((entry) => ({
      name: entry.name,
      kind: entry.isSymbolicLink() ? 'symlink' as const : entry.isDirectory() ? 'dir' as const : 'file' as const,
    }));
  } catch {
    return [];
  }
}

/**
 * Creates each scratch directory with its mount points, links and the state files: from `sourceOf(file)` (the task's own
 * copy, ./state-layers.ts) where that exists, else as the person has them now.
 */
export async function fillStateScratch(plans: readonly ScratchPlan[], sourceOf: (file: string) => string | undefined = () => undefined): Promise<StateSnapshot> {
  const snapshot = new Map<string, string | undefined>();
  for (const plan of plans) {
    await mkdir(plan.source, { recursive: true, mode: 0o700 });
    for (const entry of plan.readOnly) {
      const point = join(plan.source, entry.path.slice(plan.path.length + 1));
      if (entry.kind === 'dir') await mkdir(point, { recursive: true });
      else await writeFile(point, '', { flag: 'a' });
    }
    for (const link of plan.symlinks) {
      const target = await readlink(link).catch(() => undefined);
      if (target !== undefined) await symlink(target, join(plan.source, link.slice(plan.path.length + 1))).catch(() => undefined);
    }
    for (const file of plan.stateFiles) {
      const kept = sourceOf(file);
      const copied = await (kept === undefined ? Promise.reject(new Error('no copy of its own')) : copyFile(kept, scratchCopyOf(plan, file)))
        .catch(() => copyFile(file, scratchCopyOf(plan, file)))
        .then(() => true, () => false);
      snapshot.set(file, copied ? await digestOf(scratchCopyOf(plan, file)) : undefined);
    }
  }
  return snapshot;
}

/**
 * Copies each state file the agent wrote, if it is a plain file of sensible size, to where `destinationsOf(file)` says:
 * the task's own copy, and the person's file only for a login file. Returns a line per file it could not copy, for the
 * task's log.
 */
export async function returnStateFiles(plans: readonly ScratchPlan[], before: StateSnapshot, destinationsOf: (file: string) => readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const plan of plans) {
    for (const file of plan.stateFiles) {
      const copy = scratchCopyOf(plan, file);
      const stat = await lstat(copy).catch(() => undefined);
      if (!stat) continue;
      if (!stat.isFile() || stat.size > MAX_STATE_FILE_BYTES) {
        problems.push(`Sandbox: the agent left ${file} as ${stat.isFile() ? 'a file over 16 MiB' : 'something other than a file'}; it was not kept.`);
        continue;
      }
      if ((await digestOf(copy)) === before.get(file)) continue;
      const content = await readFile(copy);
      for (const destination of destinationsOf(file)) {
        try {
          await replaceFile(destination, content);
        } catch (error) {
          const full = isDiskFull(error) ? `Disk full: the file system holding ${dirname(destination)} has no space left; free space there. ` : '';
          problems.push(`${full}Sandbox: could not keep the agent's ${file} (${error instanceof Error ? error.message : String(error)}); its changes of this task are lost.`);
        }
      }
    }
  }
  return problems;
}

/**
 * Replaces `file` with `content` atomically: through a temp file beside it, so a write cut short (a full disk) leaves the
 * file as it was and no temp. Where the file is a link (into the person's dotfiles), its target is replaced and the link
 * kept.
 */
export async function replaceFile(file: string, content: Buffer): Promise<void> {
  const target = (await lstat(file).catch(() => undefined))?.isSymbolicLink() ? await realpath(file) : file;
  const current = await statOf(target).catch(() => undefined);
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  const temp = join(dirname(target), `.${randomBytes(6).toString('hex')}.desk-state`);
  await writeFile(temp, content, { mode: current ? current.mode & 0o777 : 0o600 })
    .then(() => rename(temp, target))
    .catch(async (error: unknown) => {
      await rm(temp, { force: true });
      throw error;
    });
}

export async function digestOf(path: string): Promise<string | undefined> {
  try {
    return createHash('sha256').update(await readFile(path)).digest('hex');
  } catch {
    return undefined;
  }
}
