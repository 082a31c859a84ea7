// Which known vendor agent a command line runs, seen through the wrappers people put around it: `env VAR=x …`,
// `sh -c '…'` / `bash -lc '…'`, `npx` / `bunx` / `pnpm dlx` / `npm exec`. Pure.
import { basename, extname } from 'node:path';
import type { KnownAgent } from './known-agents';
import { splitCommandLine } from './split-command';

/** Wrappers are peeled at most this deep: `env A=1 sh -c 'npx -y pkg'` is three. */
const MAX_DEPTH = 6;
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);
const PACKAGE_RUNNERS = new Set(['npx', 'bunx', 'pnpx']);

/** The program's bare name: `/usr/bin/gemini` and `gemini.cmd` are both `gemini`. */
function programName(program: string): string {
  const base = basename(program.replace(/\\/g, '/'));
  return /\.(cmd|exe|bat|ps1|js|mjs|cjs)$/i.test(base) ? base.slice(0, -extname(base).length) : base;
}

/** `@scope/name@1.2.3` and `name@latest` name the package `@scope/name` and `name`. */
function packageName(spec: string): string {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return at > 0 ? spec.slice(0, at) : spec;
}

/** The command a wrapper runs, or undefined when `words` is not a wrapper this knows. */
function unwrap(words: readonly string[]): string[] | undefined {
  const [program, ...rest] = words;
  if (program === undefined) return undefined;
  const name = programName(program);
  if (name === 'env') {
    let i = 0;
    while (i < rest.length) {
      const word = rest[i] as string;
      if (word === '-u' || word === '--unset' || word === '-C' || word === '--chdir') i += 2;
      else if (word.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) i += 1;
      else break;
    }
    return rest.slice(i);
  }
  if (SHELLS.has(name)) {
    // `-c` may come combined with other flags (`-lc`, `-ic`); the script is the first word after the flags.
    const flagIndex = rest.findIndex((word) => /^-[a-z]*c[a-z]*$/.test(word));
    const script = flagIndex >= 0 ? rest[flagIndex + 1] : undefined;
    if (script === undefined) return undefined;
    try {
      const inner = splitCommandLine(script.replace(/^\s*exec\s+/, ''));
      return inner;
    } catch {
      return undefined;
    }
  }
  if (PACKAGE_RUNNERS.has(name) || (name === 'pnpm' && rest[0] === 'dlx') || (name === 'npm' && (rest[0] === 'exec' || rest[0] === 'x'))) {
    const args = PACKAGE_RUNNERS.has(name) ? rest : rest.slice(1);
    // `-p pkg` / `--package=pkg` name the package and the next free word is the bin; otherwise the first free word is the package.
    let pkg: string | undefined;
    let i = 0;
    while (i < args.length) {
      const word = args[i] as string;
      if (word === '-p' || word === '--package') { pkg = args[i + 1]; i += 2; continue; }
      if (word.startsWith('--package=')) { pkg = word.slice('--package='.length); i += 1; continue; }
      if (word === '--') { i += 1; break; }
      if (word.startsWith('-')) { i += 1; continue; }
      break;
    }
    const free = args.slice(i);
    if (pkg !== undefined) return free.length > 0 ? free : [pkg];
    return free.length > 0 ? [`npm:${packageName(free[0] as string)}`, ...free.slice(1)] : undefined;
  }
  return undefined;
}

/** Whether the agent's own arguments (e.g. `--acp`) appear, so `gemini` alone (its chat UI) is not taken for `gemini --acp`. */
function hasArgs(words: readonly string[], agent: KnownAgent): boolean {
  return agent.args.every((arg) => words.includes(arg));
}

/**
 * The known agent a command line starts, or undefined. An npm runner names the package (`npx @google/gemini-cli --acp`),
 * anything else the program (`/opt/bin/gemini --acp`). Matching on the program alone would be wrong for a program
 * that needs its ACP flag, so a known agent's own arguments must be there too.
 */
export function vendorOf(words: readonly string[], known: readonly KnownAgent[]): KnownAgent | undefined {
  let current: readonly string[] = words;
  for (let depth = 0; depth <= MAX_DEPTH; depth++) {
    const [program, ...args] = current;
    if (program === undefined) return undefined;
    if (program.startsWith('npm:')) {
      const pkg = program.slice(4);
      return known.find((agent) => agent.npmPackage === pkg && hasArgs(args, agent));
    }
    const name = programName(program);
    const direct = known.find((agent) => agent.command === name && hasArgs(args, agent));
    if (direct) return direct;
    const inner = unwrap(current);
    if (!inner) return undefined;
    current = inner;
  }
  return undefined;
}
