// What an agent sees of the home directory and of the shared temp dirs in its sandbox: /tmp is its task's own temp
// dir, the home is empty but for the toolchains it runs from and its own install, and the policy hides or opens more. Pure.
import { join } from 'node:path';
import { orderedMounts, type Mount } from './bwrap-arguments';
import { expandHome, HIDDEN_HOME_DIRS, HIDDEN_HOME_FILES, isWithin, sandboxMounts, type LayoutFacts } from './sandbox-layout';

/**
 * What of the home directory stays readable (never writable) while the rest is hidden: where toolchains, version
 * managers and their package caches live, which agents and the commands they run start from, and git's own settings
 * (the name and email of commits). Nothing here is meant to hold a secret; the ones that may are TOOLCHAIN_SECRETS.
 */
export const HOME_TOOLCHAINS: readonly string[] = [
  '.gitconfig', '.config/git',
  // JavaScript runtimes and their version managers; npm's cache, from which npx runs a package without the network.
  '.nvm', '.volta', '.fnm', '.local/share/fnm', '.bun', '.deno', '.npm',
  // Rust, Go, Python, Ruby, the JVM (the package caches only: ~/.m2/settings.xml and ~/.gradle/gradle.properties hold passwords), .NET, Haskell, Nix.
  '.cargo', '.rustup', 'go', '.pyenv', '.rbenv', '.sdkman', '.asdf', '.m2/repository', '.gradle/caches', '.gradle/wrapper',
  '.dotnet', '.ghcup', '.nix-profile',
  // Programs installed per user (pip --user, pipx, uv tools, native installers) and the browsers Playwright tests run.
  '.local/bin', '.local/share/pipx', '.local/share/uv', '.cache/ms-playwright',
];

/** Credentials inside those places (crates.io's token, git's credential store under ~/.config/git): hidden all the same. */
export const TOOLCHAIN_SECRETS: readonly string[] = ['.cargo/credentials', '.cargo/credentials.toml', '.config/git/credentials'];

/** Temp dirs every program of the machine shares: the agent gets its task's own instead. */
export const SHARED_TEMP_DIRS: readonly string[] = ['/tmp', '/var/tmp'];

export interface ReadViewFacts {
  home: string;
  /** The task's temp dir, which becomes the agent's /tmp. */
  tempDir: string;
  /** The directories of the agent's PATH. */
  pathDirs: readonly string[];
  /** Where the agent's program and what it runs are installed (./agent-install-paths.ts), real paths. */
  installPaths: readonly string[];
  /** Where the agent's command is found on its PATH, unresolved: a link there (in a hidden bin dir) must still be found. */
  programOnPath?: string;
  /** Where the links in the home's PATH dirs lead (pipx, uv and native installers link into ~/.local/share), real paths. */
  pathLinkTargets?: readonly string[];
  /** The policy's `hiddenPaths` and `readablePaths` (`~/…` or absolute). */
  hiddenPaths: readonly string[];
  readablePaths: readonly string[];
  kindOf(path: string): 'dir' | 'file' | undefined;
  /** Where a symbolic link leads (its real path); undefined when `path` is not a link. */
  linkTarget(path: string): string | undefined;
}

/** Every mount of a task's sandbox: the layout's (./sandbox-layout.ts), then the read view's over it. */
export function taskViewMounts(layout: LayoutFacts, view: ReadViewFacts): Mount[] {
  return withoutShownLinks([...sandboxMounts(layout), ...readViewMounts(view)]);
}

/**
 * The links put back where another mount shows the place anyway (the agent found on PATH in Settings' agent cache,
 * which the layout keeps readable) left out: the link is there already, and bubblewrap cannot make it a second time.
 */
export function withoutShownLinks(mounts: readonly Mount[]): Mount[] {
  return mounts.filter((mount) => mount.kind !== 'symlink' || !visibleIn(mounts.filter((other) => other !== mount), mount.path));
}

/** The mounts of the read view, to lay over those of ./sandbox-layout.ts; each says why it is there. */
export function readViewMounts(facts: ReadViewFacts): Mount[] {
  const home = (path: string) => expandHome(path, facts.home);
  const hidden = facts.hiddenPaths.map(home);
  const inHidden = (path: string) => hidden.some((place) => isWithin(path, place));
  const mounts: Mount[] = [];

  // /tmp first: with the desk's data dir under /tmp (tests), the later mounts land inside the task's temp dir.
  if (facts.kindOf('/tmp') === 'dir') mounts.push({ kind: 'scratch-dir', path: '/tmp', source: facts.tempDir, why: "the task's own temp dir, as /tmp" });
  for (const dir of SHARED_TEMP_DIRS.slice(1)) if (facts.kindOf(dir) === 'dir') mounts.push({ kind: 'hide-dir', path: dir, why: 'a temp dir other programs share' });
  if (facts.kindOf(facts.home) === 'dir') mounts.push({ kind: 'hide-dir', path: facts.home, why: 'the home directory, hidden by default' });
  const hiddenRoots = [...SHARED_TEMP_DIRS, facts.home, ...hidden];

  // Nothing the view opens by itself reaches credentials or the home as a whole: only readablePaths does.
  const credentials = [...HIDDEN_HOME_DIRS, ...HIDDEN_HOME_FILES, ...TOOLCHAIN_SECRETS].map((entry) => join(facts.home, entry));
  const opened = new Set<string>();
  const open = (path: string, why: string) => {
    if (opened.has(path) || facts.kindOf(path) === undefined || isWithin(facts.home, path)) return;
    if (credentials.some((place) => isWithin(path, place))) return;
    opened.add(path);
    const target = facts.linkTarget(path);
    // A link in the hidden home is gone with it: it comes back as a link, and where it leads comes back read-only.
    if (target !== undefined) {
      mounts.push({ kind: 'symlink', path, source: target, why });
      if (facts.kindOf(target) !== undefined && hiddenRoots.some((root) => isWithin(target, root))) mounts.push({ kind: 'read-only', path: target, why });
    } else {
      mounts.push({ kind: 'read-only', path, why });
    }
  };
  const inHome = (entry: string) => join(facts.home, entry);
  const toolchains = HOME_TOOLCHAINS.map(inHome).filter((path) => !inHidden(path));
  for (const path of toolchains) open(path, 'a toolchain agents run from (HOME_TOOLCHAINS)');
  for (const dir of facts.pathDirs) {
    const covered = toolchains.some((place) => isWithin(dir, place));
    if (isWithin(dir, facts.home) && dir !== facts.home && !covered && !inHidden(dir)) open(dir, "a directory of the agent's PATH");
  }
  // The agent must start even where the policy hides its install.
  for (const path of facts.installPaths) if (hiddenRoots.some((root) => isWithin(path, root))) open(path, "the agent's own program");
  // Started by the name its PATH finds: a link there in a hidden dir comes back, or the agent would not be found.
  const program = facts.programOnPath;
  if (program !== undefined && hiddenRoots.some((root) => isWithin(program, root))) open(program, "the agent's own program, as its PATH finds it");
  for (const path of facts.pathLinkTargets ?? []) {
    if (hiddenRoots.some((root) => isWithin(path, root)) && !inHidden(path)) open(path, "where a program on the agent's PATH leads");
  }

  for (const path of TOOLCHAIN_SECRETS.map(inHome)) hide(mounts, path, facts.kindOf(path), 'credentials inside a toolchain');
  for (const path of hidden) hide(mounts, path, facts.kindOf(path), 'the policy’s hiddenPaths');
  // A grant opens what the view hides; where it names exactly a hidden path, hiding wins.
  for (const grant of facts.readablePaths.map(home)) {
    if (hidden.includes(grant) || !hiddenRoots.some((root) => isWithin(grant, root))) continue;
    if (facts.kindOf(grant) !== undefined) mounts.push({ kind: 'read-only', path: grant, why: 'the policy’s readablePaths' });
  }
  return mounts;
}

function hide(mounts: Mount[], path: string, kind: 'dir' | 'file' | undefined, why: string): void {
  if (kind === 'dir') mounts.push({ kind: 'hide-dir', path, why });
  else if (kind === 'file') mounts.push({ kind: 'hide-file', path, why });
}

/** Whether `path` can be seen through `mounts` laid over the read-only root: the last mount over it decides. */
export function visibleIn(mounts: readonly Mount[], path: string): boolean {
  const over = orderedMounts(mounts).filter((mount) => isWithin(path, mount.path));
  const last = over[over.length - 1];
  if (last === undefined) return true;
  // A scratch dir shows the task's own directory there, nothing of the host's below it.
  if (last.kind === 'scratch-dir') return path === last.path;
  return last.kind !== 'hide-dir' && last.kind !== 'hide-file';
}
