// Test support for the git layer: real repositories in temp dirs, and a git config isolated from
// this machine's (no global identity, no system config), as on a fresh CI runner.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createGitService } from './git-service';
import type { GitService } from './git-service';

const ISOLATED_KEYS = ['HOME', 'XDG_CONFIG_HOME', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL',
  'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'];

/** Points HOME at an empty dir and drops identity variables; call in beforeAll, run the result in afterAll. */
export function isolateGitConfig(): () => void {
  const saved = new Map(ISOLATED_KEYS.map((key) => [key, process.env[key]]));
  const home = mkdtempSync(join(tmpdir(), 'desk-git-home-'));
  for (const key of ISOLATED_KEYS) delete process.env[key];
  process.env.HOME = home;
  process.env.XDG_CONFIG_HOME = home;
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  return () => {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    rmSync(home, { recursive: true, force: true });
  };
}

/** Runs git the way a person would (hooks and all), with a throwaway identity for fixture commits. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.test', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).replace(/\n$/, '');
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
}

/** Commits `files` on the checked-out branch of `repo`; returns the new sha. */
export function commitFiles(repo: string, files: Record<string, string>, message = 'fixture commit'): string {
  writeFiles(repo, files);
  git(repo, 'add', '--all');
  git(repo, 'commit', '--quiet', '--no-verify', '-m', message);
  return git(repo, 'rev-parse', 'HEAD');
}

export interface Sandbox {
  root: string;
  repo: string;
  worktreesDir: string;
  hooksDir: string;
  stateDir: string;
  deskId: string;
  service: GitService;
  cleanup(): void;
}

/** A second desk (its own data dir and id) on the sandbox's repository. */
export function anotherDesk(sandbox: Sandbox, deskId: string): { stateDir: string; worktreesDir: string; service: GitService } {
  const dataDir = mkdtempSync(join(sandbox.root, 'desk-'));
  const worktreesDir = join(dataDir, 'worktrees');
  const stateDir = join(dataDir, 'git');
  return { stateDir, worktreesDir, service: createGitService({ repoRoot: sandbox.repo, worktreesDir, hooksDir: join(dataDir, 'hooks'), stateDir, deskId }) };
}

/** A temp dir with a repository on `main` (holding `files`, unless `empty`) and a service for it. */
export function createSandbox(options: { files?: Record<string, string>; empty?: boolean } = {}): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'desk-git-'));
  const repo = join(root, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '--quiet', '--initial-branch=main');
  if (!options.empty) commitFiles(repo, options.files ?? { 'README.md': '# project\n' }, 'initial');
  const worktreesDir = join(root, 'worktrees');
  const hooksDir = join(root, 'hooks');
  const stateDir = join(root, 'state');
  const deskId = 'testdesk';
  return {
    root,
    repo,
    worktreesDir,
    hooksDir,
    stateDir,
    deskId,
    service: createGitService({ repoRoot: repo, worktreesDir, hooksDir, stateDir, deskId }),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
