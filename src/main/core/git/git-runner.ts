// Runs one git command (or two in a row, see GitCallOptions.first) through simple-git and reports its exit code and
// output, so callers can tell "answered no" (exit 1) from "failed" themselves. Every command names its repository and work
// tree from the desk's own records and carries settings that leave git nothing to execute that the
// repository's content or config chose (hooks, fsmonitor, filters, textconv, merge drivers).
import { randomUUID } from 'node:crypto';
import type { SpareProcesses } from '../host/spare-processes';
import { existsSync, statSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { GitPluginError, simpleGit } from 'simple-git';
import { gitFailed } from './git-errors';
import { environmentFor, type GitRepo } from './git-environment';
import { wordsAt } from './shell-first-words';

export type { GitRepo } from './git-environment';

export interface GitResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** With `first`: that command failed (`exitCode` is its own) and this one did not run. */
  firstFailed?: boolean;
}

export interface GitCallOptions {
  /** Written to git's stdin (e.g. a commit message for `commit -F -`). */
  input?: string;
  /** Extra `name=value` settings for this command only (fixed names chosen by the desk). */
  config?: readonly string[];
  /** Ends git (and fails the call) after this many ms, output or not: for commands that reach the network. */
  timeoutMs?: number;
  /**
   * The index this command reads and writes instead of the work tree's own (`GIT_INDEX_FILE`): a scratch file of the
   * desk's, so a snapshot of the work tree never touches the index an agent's own git commands use.
   */
  indexFile?: string;
  /**
   * A git command (arguments fixed by the desk) to run first, with the same environment and settings and its stdin
   * closed; this command runs only when that one succeeded. On POSIX both run in one `sh` the desk starts: every
   * process the desk starts is a fork of its large process (~1.5 ms of its CPU, plus simple-git's work per command),
   * a fork of the shell costs a fraction of that.
   */
  first?: readonly string[];
}

/** A git process as the runner would start it, for a launcher that starts it itself (./checkout-first.ts). */
export interface GitInvocation {
  /** git's arguments. */
  args: string[];
  /** Its whole environment: the desk's, cleaned, with the repository and the settings (./git-environment.ts). */
  env: Record<string, string>;
}

export interface GitRunner {
  /** Runs git on `repo`; resolves whatever the exit code. Rejects only when git could not run. */
  exec(repo: GitRepo, args: readonly string[], options?: GitCallOptions): Promise<GitResult>;
  /** Runs git on `repo` and returns stdout without its trailing newline; throws `git_failed` on a non-zero exit. */
  run(repo: GitRepo, args: readonly string[], options?: GitCallOptions): Promise<string>;
  /** The bytes of a blob (`<commit>:<path>`), read without filters or textconv. */
  blob(repo: GitRepo, spec: string): Promise<Buffer>;
  /**
   * The config keys set for `repo` among drivers, includes and `user.name` / `user.email`, lower-cased as git prints
   * them: the look-up every command needs anyway, kept while the config files stay as they were.
   */
  configuredKeys(repo: GitRepo): Promise<readonly string[]>;
  /**
   * The process `exec` would start for this command (the same settings, drivers and environment) without starting
   * it: for a launcher that runs it in a process of its own. simple-git's argument guards are not applied, so the
   * arguments must be the desk's own, fixed ones.
   */
  invocation(repo: GitRepo, args: readonly string[], options?: Pick<GitCallOptions, 'config'>): Promise<GitInvocation>;
  /** Processes waiting to become a script of git commands (./git-pipe.ts runGitScript), when the runner was given them. */
  readonly spares?: Pick<SpareProcesses, 'take'>;
}

export interface GitRunnerOptions {
  /** An empty directory used as core.hooksPath, so no repository hook runs for the app's commands. */
  hooksDir?: string;
  /**
   * The global config file git reads (an empty file the desk owns). Default: `/dev/null`, which git
   * understands on every platform. System config is never read.
   */
  globalConfig?: string;
  /** Wall clock in ms, to tell config files changed too recently to trust their timestamps; tests move it on. */
  now?: () => number;
  /** Whether `first` and its command share one `sh` (default: everywhere but Windows); otherwise two processes. */
  chainInShell?: boolean;
  /** Processes started ahead of need, for runGitScript (../host/spare-processes.ts). */
  spares?: Pick<SpareProcesses, 'take'>;
}

// A merge driver cannot be switched off by an empty value (git then fails the merge), so a driver
// the repository names is replaced by git's own three-way text merge of the same files.
const TEXT_MERGE_DRIVER = 'git merge-file --marker-size=%L %A %O %B';

/** Settings every command carries. */
const FIXED_CONFIG: readonly (readonly [string, string])[] = [
  // A user's commit.gpgsign=true would make every app commit wait on a passphrase prompt.
  ['commit.gpgsign', 'false'],
  ['merge.verifySignatures', 'false'],
  // Auto-gc and auto-maintenance can detach into the background and race with worktree add/remove;
  // the person's own git commands keep the repository packed.
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  // Programs the repository config could name and git would start.
  ['core.fsmonitor', 'false'],
  ['core.sshCommand', 'ssh'],
  ['core.pager', 'cat'],
  ['core.editor', 'true'],
  ['sequence.editor', 'true'],
  ['submodule.recurse', 'false'],
  ['rerere.enabled', 'false'],
];

// Stamps of config files change whenever a file does: older ones are dropped past this many.
const DRIVER_CACHE_ENTRIES = 64;

// Commands that read no attributes and check out or stage nothing, so no driver could run: they
// skip the look-up of driver names (one git process fewer).
const DRIVERLESS_COMMANDS = new Set(['rev-parse', 'symbolic-ref', 'update-ref', 'merge-base', 'config', 'cat-file', 'for-each-ref']);


// simple-git blocks settings that can name programs. Every setting and variable this runner passes
// is built here from fixed names and values (the only names taken from git are driver names read
// back from the repository's config, and their values are always empty or fixed), and what they do
// is switch those programs off; so exactly these categories are unlocked. (The protocol, credential
// helper, askpass and pack settings are the push's: see push-branch.ts; the remote's name in them is
// checked to be a plain name first.)
const UNSAFE_UNLOCKED = {
  allowUnsafeHooksPath: true,
  allowUnsafeFsMonitor: true,
  allowUnsafeFilter: true,
  allowUnsafeDiffTextConv: true,
  allowUnsafeDiffExternal: true,
  allowUnsafeMergeDriver: true,
  allowUnsafeSshCommand: true,
  allowUnsafePager: true,
  allowUnsafeEditor: true,
  allowUnsafeConfigPaths: true,
  allowUnsafeConfigEnvCount: true,
  allowUnsafeProtocolOverride: true,
  allowUnsafeCredentialHelper: true,
  allowUnsafeAskPass: true,
  allowUnsafePack: true,
} as const;

export function createGitRunner(options: GitRunnerOptions = {}): GitRunner {
  const fixed: (readonly [string, string])[] = [
    ...FIXED_CONFIG,
    ...(options.hooksDir ? [['core.hooksPath', options.hooksDir] as const] : []),
  ];
  const globalConfig = options.globalConfig ?? '/dev/null';
  const now = options.now ?? Date.now;
  const chainInShell = options.chainInShell ?? process.platform !== 'win32';

  const spawn = async (repo: GitRepo, args: readonly string[], settings: readonly (readonly [string, string])[], call: GitCallOptions, format: 'text' | 'buffer', shell?: ShellChain): Promise<GitResult & { bytes?: Buffer }> => {
    const cwd = repo.workTree ?? repo.gitDir;
    // simple-git refuses to construct on a missing directory; report it like any other git failure.
    if (!existsSync(cwd)) throw gitFailed(args, undefined, `the directory ${cwd} does not exist`);
    const env = environmentFor(repo, globalConfig, settings);
    if (call.indexFile !== undefined) env.GIT_INDEX_FILE = call.indexFile;
    let outcome: { exitCode: number; stdErr: Buffer[] } | undefined;
    const git = simpleGit({
      baseDir: cwd,
      // simple-git starts the shell in git's place, with the same environment, guards and stdin.
      ...(shell && { binary: ['/bin/sh', '-c'] as [string, string] }),
      unsafe: UNSAFE_UNLOCKED,
      allowEnvironment: Object.keys(env).filter((key) => key.toUpperCase().startsWith('GIT_')),
      input: call.input === undefined ? undefined : () => call.input,
      ...(call.timeoutMs !== undefined && { timeout: { block: call.timeoutMs, stdErr: false, stdOut: false } }),
      // Keep the outcome and report success, so a non-zero exit reaches the caller as data. A
      // refusal by one of simple-git's own guards is still an error.
      errors: (error, result) => {
        if (error instanceof GitPluginError) return error;
        outcome = result;
        return undefined;
      },
    }).env(env);
    try {
      const stderr = () => (outcome ? Buffer.concat(outcome.stdErr).toString('utf8') : '');
      if (format === 'buffer') {
        const bytes: unknown = await git.binaryCatFile([...args.slice(1)]);
        return { exitCode: outcome?.exitCode ?? 0, stdout: '', stderr: stderr(), bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(String(bytes)) };
      }
      const stdout = await git.raw(shell ? shell.argv(args) : [...args]);
      const result = { exitCode: outcome?.exitCode ?? 0, stdout, stderr: stderr() };
      return shell ? shell.result(result) : result;
    } catch (error) {
      throw gitFailed(args, undefined, error instanceof Error ? error.message : String(error));
    }
  };

  // Drivers are named in the config (the person's, or one an agent wrote with `git config`) and
  // chosen per path by .gitattributes (which an agent writes freely). Each configured driver is
  // looked up before the command and overridden for it. The look-up is a git process of its own, so
  // its answer is kept by the stamp of the files git reads config from (see configStamp): the person's
  // checkout and every task worktree without a config of its own read the same files and share one
  // look-up; a config that includes other files is looked up before every command.
  const driverCache = new Map<string, Promise<{ keys: readonly string[]; overrides: (readonly [string, string])[] }>>();
  const lookUp = async (repo: GitRepo): Promise<{ keys: readonly string[]; overrides: (readonly [string, string])[] }> => {
    const listed = await spawn(repo, ['config', '--null', '--name-only', '--get-regexp', '^(filter|diff|merge)\\.|^include(if)?\\.|^user\\.(name|email)$'], fixed, {}, 'text');
    if (listed.exitCode !== 0 && listed.exitCode !== 1) throw gitFailed(['config', '--get-regexp'], listed.exitCode, listed.stderr);
    const keys = listed.stdout.split('\0').filter((key) => key !== '');
    return { keys, overrides: keys.flatMap(overrideFor) };
  };
  const configLookUp = async (repo: GitRepo): Promise<{ keys: readonly string[]; overrides: (readonly [string, string])[] }> => {
    // Taken before the look-up: a change made while git reads gives a stamp that no longer matches.
    const stamp = configStamp(repo, globalConfig, now());
    if (stamp === undefined) return lookUp(repo);
    const kept = driverCache.get(stamp);
    if (kept) {
      const found = await kept.catch(() => undefined);
      // Joined while it ran: an included file may have changed after that look-up read it; a failed one is tried again.
      return found === undefined || found.keys.some(isInclude) ? lookUp(repo) : found;
    }
    // Kept while it runs too, so tasks starting together share one look-up; forgotten when it fails or finds includes
    // (an included file can change without any stamped file changing).
    const pending = lookUp(repo);
    driverCache.set(stamp, pending);
    if (driverCache.size > DRIVER_CACHE_ENTRIES) driverCache.delete(driverCache.keys().next().value as string);
    pending.then((found) => {
      if (found.keys.some(isInclude)) driverCache.delete(stamp);
    }, () => driverCache.delete(stamp));
    return pending;
  };

  const settingsFor = async (repo: GitRepo, args: readonly string[], call: GitCallOptions): Promise<(readonly [string, string])[]> => {
    const { first } = call;
    const driverless = DRIVERLESS_COMMANDS.has(args[0] ?? '') && (first === undefined || DRIVERLESS_COMMANDS.has(first[0] ?? ''));
    const drivers = driverless ? [] : (await configLookUp(repo)).overrides;
    return [...fixed, ...drivers, ...(call.config ?? []).map(splitSetting)];
  };

  const exec = async (repo: GitRepo, args: readonly string[], call: GitCallOptions = {}): Promise<GitResult> => {
    const { first } = call;
    const settings = await settingsFor(repo, args, call);
    if (first === undefined) return spawn(repo, args, settings, call, 'text');
    if (chainInShell) return spawn(repo, args, settings, call, 'text', shellChain(first));
    const before = await spawn(repo, first, settings, { ...call, input: undefined }, 'text');
    if (before.exitCode !== 0) return { ...before, firstFailed: true };
    return spawn(repo, args, settings, call, 'text');
  };

  const run = async (repo: GitRepo, args: readonly string[], call?: GitCallOptions): Promise<string> => {
    const result = await exec(repo, args, call);
    if (result.exitCode !== 0) throw gitFailed(args, result.exitCode, result.stderr || result.stdout);
    return result.stdout.replace(/\r?\n$/, '');
  };

  const blob = async (repo: GitRepo, spec: string): Promise<Buffer> => {
    const args = ['cat-file', 'blob', spec];
    const result = await spawn(repo, args, fixed, {}, 'buffer');
    if (result.exitCode !== 0) throw gitFailed(args, result.exitCode, result.stderr);
    return result.bytes ?? Buffer.alloc(0);
  };

  const invocation = async (repo: GitRepo, args: readonly string[], call: Pick<GitCallOptions, 'config'> = {}): Promise<GitInvocation> => (
    { args: [...args], env: environmentFor(repo, globalConfig, await settingsFor(repo, args, call)) }
  );

  return { exec, run, blob, configuredKeys: async (repo) => (await configLookUp(repo)).keys, invocation, ...(options.spares && { spares: options.spares }) };
}

/** Two git commands in one `sh`: the arguments it is started with, and how to read its outcome. */
interface ShellChain {
  argv(args: readonly string[]): string[];
  result(shell: GitResult): GitResult;
}

/**
 * `sh -c` runs `git <first>` with stdin closed, then `exec git <args>` (stdin: the call's input) only when the first
 * succeeded. A failed first command ends the shell after one last line on stderr, `<mark> <exit code>`: the mark is
 * random per call, so nothing either command prints (file names are the agent's) can pass for it. Every argument of
 * both commands travels as one of the shell's parameters, never in its script: none is read as shell syntax, and
 * simple-git's argument guards see them all as they see a single command's.
 */
export function shellChain(first: readonly string[]): ShellChain {
  const mark = `desk-first-failed-${randomUUID()}`;
  return {
    argv: (args) => [chainScript(first.length), 'sh', mark, ...first, ...args],
    result(shell) {
      const end = `\n${mark} `;
      const at = shell.stderr.lastIndexOf(end);
      const code = at === -1 ? undefined : /^(\d+)\n$/.exec(shell.stderr.slice(at + end.length));
      if (!code) return shell;
      return { exitCode: Number(code[1]), stdout: shell.stdout, stderr: shell.stderr.slice(0, at), firstFailed: true };
    },
  };
}

/** The chain's script for a first command of `words` arguments. Parameters: the mark, its arguments, the command's (./shell-first-words.ts). */
function chainScript(words: number): string {
  return [
    'm=$1',
    `git ${wordsAt(2, words)} </dev/null || { s=$?; printf '\\n%s %s\\n' "$m" "$s" >&2; exit "$s"; }`,
    `shift ${words + 1}; exec git "$@"`,
  ].join('\n');
}

/**
 * Changes within this long of a file's modification time may share its timestamp (coarse clocks, some
 * file systems keep 2 s): a config file modified more recently is not trusted to have stayed the same.
 */
const RACY_CONFIG_MS = 2_000;

/**
 * Says whether the config files git reads for `repo` are as they were: the repository's config, the git dir's own
 * config.worktree (read when extensions.worktreeConfig is on; each worktree reads only its own, the person's checkout
 * `<common dir>/config.worktree`) and the desk's global config, each by inode, size, change and modification time.
 * undefined when one of them changed too recently for its timestamp to tell a later change apart; then nothing may be
 * kept. Equal stamps mean git reads the same config: a git dir without a config.worktree of its own is not named, so
 * the checkout and its task worktrees share one stamp.
 * Synchronous: it runs before every git command, and three stats of files git is about to read anyway take
 * microseconds, where three trips through the thread pool cost the desk's thread more than the stats themselves.
 */
export function configStamp(repo: GitRepo, globalConfig: string, now: number = Date.now()): string | undefined {
  const commonDir = repo.commonDir ?? repo.gitDir;
  const files = [join(commonDir, 'config'), join(repo.gitDir, 'config.worktree'), globalConfig];
  const stamps: string[] = [];
  for (const file of files) {
    const info = statOrUndefined(file);
    if (!info) {
      stamps.push('absent');
      continue;
    }
    // An empty file says nothing whatever its timestamps: a change that leaves it empty changes no setting. The desk's
    // own global config is one, new on a desk's first start, when its first tasks would otherwise each look up again.
    if (info.isFile() && info.size === 0n) {
      stamps.push(`${info.dev}:${info.ino}:empty`);
      continue;
    }
    if (now - Number(info.mtimeMs) < RACY_CONFIG_MS || now - Number(info.ctimeMs) < RACY_CONFIG_MS) return undefined;
    stamps.push(`${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`);
  }
  const named = stamps[1] === 'absent' ? [files[0], 'no config.worktree', files[2]] : files;
  return `${named.join('\0')}\0${stamps.join('\0')}`;
}

/** A file's stat, or undefined when it cannot be read (absent, or a folder on the way is not one). */
function statOrUndefined(file: string): BigIntStats | undefined {
  try {
    return statSync(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * One value of the person's own git config as their git reads it (system, global, repository), for
 * facts the desk passes on explicitly later, e.g. their commit identity. Reading config runs nothing.
 */
export async function readPersonalConfig(cwd: string, key: string): Promise<string | undefined> {
  const git = simpleGit({ baseDir: cwd, allowEnvironment: ['GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL'], unsafe: { allowUnsafeConfigPaths: true } });
  const value = await git.raw(['config', '--get', key]).catch(() => '');
  return value.trim() === '' ? undefined : value.replace(/\r?\n$/, '');
}

const isInclude = (key: string): boolean => /^include(if)?\./i.test(key);

/** The override that disarms one configured driver key, if it is one that names a program. */
export function overrideFor(key: string): (readonly [string, string])[] {
  const dot = key.lastIndexOf('.');
  const section = key.slice(0, key.indexOf('.')).toLowerCase();
  const variable = key.slice(dot + 1).toLowerCase();
  const driver = key.slice(0, dot);
  if (driver === section) return []; // no subsection: not a driver (e.g. diff.renames)
  if (section === 'filter' && (variable === 'clean' || variable === 'smudge' || variable === 'process')) {
    // An empty command means "no filter"; required=false keeps git from failing for want of one.
    return [[key, ''], [`${driver}.required`, 'false']];
  }
  // An empty textconv is skipped; an external diff command is refused with --no-ext-diff by callers.
  if (section === 'diff' && variable === 'textconv') return [[key, '']];
  if (section === 'merge' && variable === 'driver') return [[key, TEXT_MERGE_DRIVER]];
  if (section === 'merge' && variable === 'recursive') return [[key, 'text']];
  return [];
}

function splitSetting(setting: string): readonly [string, string] {
  const equals = setting.indexOf('=');
  return equals === -1 ? [setting, 'true'] : [setting.slice(0, equals), setting.slice(equals + 1)];
}
