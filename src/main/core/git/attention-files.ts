// The attention list: which changed files can run code or steer agents on the person's machine once merged (CI,
// hooks, package scripts, editor tasks, direnv, agent configs). The one place the list lives; docs/security.md shows it.
import picomatch from 'picomatch';
import type { FileAttention, FileDiff } from '../../../shared/review';
import type { AttentionFile } from '../../../shared/task';

/** One kind of file on the list: its globs (picomatch, from the repository's root, dot files included) and why it matters. */
export interface AttentionRule {
  readonly kind: string;
  readonly globs: readonly string[];
  readonly reason: string;
}

// The built-in list. `package.json` is not here: it is flagged only when its `scripts` changed (packageScriptsReason).
// A glob without a slash matches at the root only; `**/name` matches in every folder, the root included (monorepos).
export const ATTENTION_RULES: readonly AttentionRule[] = [
  { kind: 'ci', globs: ['.github/workflows/**', '.github/actions/**', '.gitlab-ci.yml', '.gitlab/ci/**', '.circleci/**', 'Jenkinsfile', 'azure-pipelines.yml'],
    reason: 'It is a CI pipeline: its commands run with the repository\'s secrets once pushed.' },
  { kind: 'hooks', globs: ['.husky/**', '.githooks/**', 'lefthook.yml', 'lefthook.yaml', '.lefthook.yml', 'lefthook-local.yml', '.pre-commit-config.yaml'],
    reason: 'It configures git hooks: its commands run on your machine when you commit or push.' },
  { kind: 'make', globs: ['**/Makefile', '**/makefile', '**/GNUmakefile', '**/*.mk'],
    reason: 'It is a Makefile: `make` runs its commands on your machine.' },
  { kind: 'editor', globs: ['.vscode/tasks.json', '.vscode/settings.json', '.vscode/launch.json', '.idea/**'],
    reason: 'It is an editor config: your editor can run the tasks, tools and commands it names when the folder opens.' },
  { kind: 'env', globs: ['**/.envrc'],
    reason: 'It is a direnv file: your shell runs it when you enter the folder.' },
  { kind: 'agents', globs: ['.claude/**', '.mcp.json', '**/AGENTS.md', '**/CLAUDE.md', '**/GEMINI.md', '.gemini/**', '.cursor/**', '.cursorrules', '.codex/**'],
    reason: 'It configures or instructs coding agents: the next agent run here reads it, and MCP servers it names start as commands.' },
  { kind: 'desk', globs: ['.desk/**'],
    reason: 'It is the desk\'s worktree setup: its prepare, setup and cleanup commands run for every new task (prepare outside the sandbox).' },
];

const PACKAGE_JSON = picomatch('**/package.json', { dot: true });

/** Whether the classifier reads a file's texts (only package.json's scripts are compared); for a diff made just to classify. */
export const attentionReadsTexts = (path: string): boolean => PACKAGE_JSON(path);

/** Why a changed file needs the person's attention, or undefined; `extraGlobs` are the policy's `attentionGlobs`. */
export type AttentionClassifier = (file: Pick<FileDiff, 'path' | 'oldPath' | 'status' | 'oldText' | 'newText' | 'binary' | 'tooLarge'>) => FileAttention | undefined;

/** Builds the classifier once for a list of extra globs (matchers are compiled here, not per file). */
export function attentionClassifier(extraGlobs: readonly string[] = []): AttentionClassifier {
  const rules = ATTENTION_RULES.map((rule) => ({ rule, matches: picomatch([...rule.globs], { dot: true }) }));
  const extra = extraGlobs.map((glob) => ({ glob, matches: picomatch(glob, { dot: true }) }));
  return (file) => {
    // A rename counts under either name: moving a hook away changes what runs as much as adding one.
    const paths = file.oldPath !== undefined && file.oldPath !== file.path ? [file.path, file.oldPath] : [file.path];
    for (const { rule, matches } of rules) {
      if (paths.some((path) => matches(path))) return { reason: rule.reason };
    }
    if (paths.some((path) => PACKAGE_JSON(path))) {
      const reason = packageScriptsReason(file);
      if (reason !== undefined) return { reason };
    }
    const named = extra.find(({ matches }) => paths.some((path) => matches(path)));
    return named && { reason: `The desk's policy lists it for attention (attentionGlobs: ${named.glob}).` };
  };
}

/** A `package.json` whose `scripts` changed (or could not be compared) is worth a look; other edits are not. */
function packageScriptsReason(file: Pick<FileDiff, 'status' | 'oldText' | 'newText' | 'binary' | 'tooLarge'>): string | undefined {
  if (file.binary || file.tooLarge) return 'It is a package.json too large to compare: npm runs its scripts on your machine, and they may have changed.';
  const before = file.status === 'added' ? undefined : scriptsOf(file.oldText);
  const after = file.status === 'deleted' ? undefined : scriptsOf(file.newText);
  if (before === UNREADABLE || after === UNREADABLE) return 'It is a package.json that is not valid JSON, so its scripts could not be compared: npm runs them on your machine.';
  if (before === after) return undefined;
  return 'Its scripts changed: npm runs them on your machine (install, test, build).';
}

const UNREADABLE = Symbol('unreadable');

/** The `scripts` object as a canonical string (keys sorted), undefined when there is none. */
function scriptsOf(text: string | undefined): string | undefined | typeof UNREADABLE {
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return UNREADABLE;
  }
  if (typeof json !== 'object' || json === null || !('scripts' in json)) return undefined;
  const scripts = (json as { scripts: unknown }).scripts;
  if (typeof scripts !== 'object' || scripts === null || Array.isArray(scripts)) return JSON.stringify(scripts);
  const entries = Object.entries(scripts as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? undefined : JSON.stringify(entries);
}

/** The diff with `attention` set on each file that needs it (the order stays git's; the board puts them first). */
export function withAttention<D extends { files: FileDiff[] }>(diff: D, classify: AttentionClassifier): D {
  return {
    ...diff,
    files: diff.files.map((file) => {
      const { attention: _, ...rest } = file;
      const attention = classify(rest);
      return attention ? { ...rest, attention } : rest;
    }),
  };
}

/** The flagged files of a diff, as the approve refusal and the pull request body name them. */
export function attentionFilesOf(diff: { files: readonly FileDiff[] }): AttentionFile[] {
  return diff.files.flatMap((file) => (file.attention ? [{ path: file.path, reason: file.attention.reason }] : []));
}
