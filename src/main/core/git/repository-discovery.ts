// Asks git where the repository a person named keeps its files and git dirs: the one time the desk lets git discover a
// repository, when the person names theirs at start. A plain checkout is read from its files instead, as git would
// answer (./repository-files.ts). Plain child_process, no simple-git, so the headless entry can start it before the
// core's code loads and git answers meanwhile (the start waited ~10 ms for it otherwise).
import { execFile } from 'node:child_process';
import { findOnPath } from '../host/find-on-path';
import { environmentFor } from './git-environment';
import { repositoryLinesFromFiles } from './repository-files';
import type { GitResult } from './git-runner';

/** What git answered; `notStarted` says why git could not be run at all (no git on PATH). Never a rejection. */
export type DiscoveryResult = GitResult & { notStarted?: string };

/** A discovery of `path` with HEAD (see discoverRepository), started before the core needed it. */
export interface RepositoryDiscovery {
  /** The path as given to git, absolute: the discovery answers for this path only. */
  path: string;
  withHead: Promise<DiscoveryResult>;
}

/**
 * Where the repository holding `cwd` is, as git finds it from there: top level, git dir and common dir, one a line.
 * `head`: also HEAD's commit and the ref it names (`HEAD` when detached); git fails the whole question when HEAD has
 * no commit yet, so a caller asks again without it.
 */
export function discoverRepository(cwd: string, options: { head?: boolean } = {}): Promise<DiscoveryResult> {
  // A plain checkout's answer is in its files (./repository-files.ts); with git on PATH, as its absence is said here.
  const fromFiles = findOnPath('git', process.env.PATH ?? '') !== undefined ? repositoryLinesFromFiles(cwd, { head: options.head === true }) : undefined;
  if (fromFiles !== undefined) return Promise.resolve({ exitCode: 0, stdout: fromFiles, stderr: '' });
  const args = ['rev-parse', '--path-format=absolute', '--show-toplevel', '--absolute-git-dir', '--git-common-dir', ...(options.head ? ['HEAD', '--symbolic-full-name', 'HEAD'] : [])];
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: environmentFor(undefined, '/dev/null', []), windowsHide: true }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') {
        resolve({ exitCode: -1, stdout: '', stderr: String(stderr), notStarted: error.message });
        return;
      }
      resolve({ exitCode: error ? Number(error.code) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** Starts discovering `path` (absolute) with HEAD now; the answer waits in the returned promise. */
export function startRepositoryDiscovery(path: string): RepositoryDiscovery {
  return { path, withHead: discoverRepository(path, { head: true }) };
}
