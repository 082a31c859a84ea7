// Text files straight on disk: what a session uses when the client does not offer its own file system.
// node:fs/promises loads on first use: a session whose client offers its file system (the desk does) may never need
// it, and loading it is about 1 ms of CPU of every agent's start.
import { dirname } from 'node:path';
import type { TextFiles } from './script-sink';

const fs = () => import('node:fs/promises');

export function diskTextFiles(): TextFiles {
  return { read: readTextIfExists, write: writeTextCreatingDirs };
}

export async function readTextIfExists(absolutePath: string): Promise<string | null> {
  try {
    return await (await fs()).readFile(absolutePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export async function writeTextCreatingDirs(absolutePath: string, text: string): Promise<void> {
  const { mkdir, writeFile } = await fs();
  await mkdir(dirname(absolutePath), { recursive: true });
  await writeFile(absolutePath, text, 'utf8');
}

export async function deleteFile(absolutePath: string): Promise<void> {
  // No `force`: deleting a file that is not there is a failure the script should hear about.
  await (await fs()).rm(absolutePath);
}

export async function pathExists(absolutePath: string): Promise<boolean> {
  return (await fs()).access(absolutePath).then(() => true, () => false);
}

/** Moves a file, creating the destination's directories. */
export async function moveFile(from: string, to: string): Promise<void> {
  const { mkdir, rename } = await fs();
  await mkdir(dirname(to), { recursive: true });
  await rename(from, to);
}
