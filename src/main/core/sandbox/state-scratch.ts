// The shell around ./state-files.ts: fills a task's scratch directories before its sandbox starts (mount points
// for the person's entries, their symbolic links, the agent's state files) and, when the task ends, copies the
// state files the agent changed back where the person keeps them.
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

/** Creates each scratch directory with its mount points, links and the state files as they are now. */
export async function fillStateScratch(plans: readonly ScratchPlan[]): Promise<StateSnapshot> {
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
      const copied = await copyFile(file, scratchCopyOf(plan, file)).then(() => true, () => false);
      snapshot.set(file, copied ? await digestOf(scratchCopyOf(plan, file)) : undefined);
    }
  }
  return snapshot;
}

/**
 * Copies back each state file the agent wrote, if it is a plain file of sensible size, replacing the person's
 * atomically (or writing through it, where the person's is a link into their dotfiles). Returns a line per
 * file it could not return, for the task's log.
 */
export async function returnStateFiles(plans: readonly ScratchPlan[], before: StateSnapshot): Promise<string[]> {
  const problems: string[] = [];
  for (const plan of plans) {
    for (const file of plan.stateFiles) {
      const copy = scratchCopyOf(plan, file);
      const stat = await lstat(copy).catch(() => undefined);
      if (!stat) continue;
      if (!stat.isFile() || stat.size > MAX_STATE_FILE_BYTES) {
        problems.push(`Sandbox: the agent left ${file} as ${stat.isFile() ? 'a file over 16 MiB' : 'something other than a file'}; it was not copied back.`);
        continue;
      }
      if ((await digestOf(copy)) === before.get(file)) continue;
      try {
        const content = await readFile(copy);
        // Where the person's file is a link into their dotfiles, its target is replaced and the link kept. Always
        // through a temp file: a write cut short (a full disk) then leaves the person's file as it was, and no temp.
        const target = (await lstat(file).catch(() => undefined))?.isSymbolicLink() ? await realpath(file) : file;
        const current = await statOf(target).catch(() => undefined);
        const temp = join(dirname(target), `.${randomBytes(6).toString('hex')}.desk-state`);
        await writeFile(temp, content, { mode: current ? current.mode & 0o777 : 0o600 })
          .then(() => rename(temp, target))
          .catch(async (error: unknown) => {
            await rm(temp, { force: true });
            throw error;
          });
      } catch (error) {
        const full = isDiskFull(error) ? `Disk full: the file system holding ${dirname(file)} has no space left; free space there. ` : '';
        problems.push(`${full}Sandbox: could not copy the agent's ${file} back (${error instanceof Error ? error.message : String(error)}); its changes of this task are lost.`);
      }
    }
  }
  return problems;
}

async function digestOf(path: string): Promise<string | undefined> {
  try {
    return createHash('sha256').update(await readFile(path)).digest('hex');
  } catch {
    return undefined;
  }
}
