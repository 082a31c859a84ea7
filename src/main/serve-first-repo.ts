// The first --repo of the headless host's command line, read before its full parse (serve-options.ts) so that the
// entry can start git on it while the host's code loads. Only a guess: the core uses git's answer for the path its
// own parse finds and nothing else, so a command line read differently here costs one git process, never a wrong repo.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** The first `--repo`, made absolute as the host makes it; undefined for `--help`, without one, or on any doubt. */
export function firstRepoArgument(argv: readonly string[]): string | undefined {
  try {
    const { values } = parseArgs({
      args: [...argv], strict: false, allowPositionals: true,
      options: { repo: { type: 'string', multiple: true }, help: { type: 'boolean' } },
    });
    const first = values.repo?.[0];
    return values.help === true || typeof first !== 'string' || first === '' ? undefined : resolve(first);
  } catch {
    return undefined;
  }
}
