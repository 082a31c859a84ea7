// Reads a repository's `.desk/config.json` from the person's checkout; a broken file is an error the task shows.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deskError } from '../../../shared/desk-error';
import { REPO_CONFIG_FILE, RepoConfig } from '../../../shared/repo-config';

const repoConfigInvalid = (message: string) => deskError('invalid', 'repo_config_invalid', message);

/**
 * The repository's setup, or `fallback` (the desk's settings for it) when it has no file: the file wins. Read per
 * task, so edits apply to the next task.
 */
export async function readRepoConfig(repoRoot: string, fallback?: RepoConfig): Promise<RepoConfig> {
  return (await readRepoConfigFile(repoRoot)) ?? fallback ?? { copy: [] };
}

/** The repository's own `.desk/config.json`, or undefined when it has none. */
export async function readRepoConfigFile(repoRoot: string): Promise<RepoConfig | undefined> {
  const file = join(repoRoot, REPO_CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw repoConfigInvalid(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw repoConfigInvalid(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = RepoConfig.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw repoConfigInvalid(`${file}: ${issue?.path.join('.') || '(the file)'}: ${issue?.message ?? 'is invalid'}`);
  }
  return parsed.data;
}
