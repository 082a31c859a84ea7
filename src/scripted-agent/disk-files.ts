// Text files straight on disk: what a session uses when the client does not offer its own file system.
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TextFiles } from './script-sink';

export function diskTextFiles(): TextFiles {
  return { read: readTextIfExists, write: writeTextCreatingDirs };
}

export async function readTextIfExists(absolutePath: string): Promise<string | null> {
  try {
    return await readFile(absolutePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export async function writeTextCreatingDirs(absolutePath: string, text: string): Promise<void> {
  await mkdir(dirname(absolutePath), { recursive: true });
  await writeFile(absolutePath, text, 'utf8');
}

export async function deleteFile(absolutePath: string): Promise<void> {
  // No `force`: deleting a file that is not there is a failure the script should hear about.
  await rm(absolutePath);
}

export function pathExists(absolutePath: string): Promise<boolean> {
  return access(absolutePath).then(() => true, () => false);
}

/** Moves a file, creating the destination's directories. */
export async function moveFile(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await rename(from, to);
}
