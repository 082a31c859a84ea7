// Which image a task's container runs: the repository's own choice (`.desk/config.json` `image`, else
// `.devcontainer/devcontainer.json` `image`), else the desk's configured default.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readRepoConfig } from '../../workspace/repo-config-file';

export async function chooseImage(repoRoot: string, fallback: string | undefined): Promise<{ image: string; from: string } | undefined> {
  const config = await readRepoConfig(repoRoot);
  if (config.image !== undefined) return { image: config.image, from: '.desk/config.json' };
  const devcontainer = await devcontainerImage(repoRoot);
  if (devcontainer !== undefined) return { image: devcontainer, from: '.devcontainer/devcontainer.json' };
  return fallback !== undefined ? { image: fallback, from: 'runners.json' } : undefined;
}

/** devcontainer.json is JSON with comments: read its `image` without a parser for the whole dialect. */
async function devcontainerImage(repoRoot: string): Promise<string | undefined> {
  const text = await readFile(join(repoRoot, '.devcontainer', 'devcontainer.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const match = /^\s*"image"\s*:\s*"([^"\\]{1,500})"/m.exec(text);
  return match?.[1];
}
