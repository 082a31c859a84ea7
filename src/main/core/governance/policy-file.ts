// Keeps the governance policy in `<dataDir>/policy.json`: a missing file means the defaults, a broken one
// stops the host with one line naming the file and the field; saves are atomic and private (token hashes).
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PolicyFile } from '../../../shared/governance';
import { policyFileInvalid } from './governance-errors';

export const POLICY_FILE = 'policy.json';

/**
 * Read at start and when the file changes: on a schema's first parse zod compiles a fast path for each object in it,
 * which a parse made this seldom never pays back (about 2 ms of every start, with the runners file's).
 */
const ONCE = { jitless: true } as const;

export interface PolicyStore {
  readonly path: string;
  /** The stored policy, or the defaults when there is no file yet; throws `policy_file_invalid`. */
  load(): PolicyFile;
  /**
   * The stored policy, or undefined when there is no file yet; throws `policy_file_invalid`. The host's start checks
   * the file with this: the defaults are first needed when an agent asks something, not before the desk answers.
   */
  loadIfPresent(): PolicyFile | undefined;
  /** The policy of a desk with no policy file: every default. */
  defaults(): PolicyFile;
  save(file: PolicyFile): void;
}

export function createPolicyFileStore(dataDir: string): PolicyStore {
  const path = join(dataDir, POLICY_FILE);
  const defaults = (): PolicyFile => PolicyFile.parse({ version: 1 }, ONCE);
  const loadIfPresent = (): PolicyFile | undefined => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw policyFileInvalid(`Cannot read the governance policy ${path}: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw policyFileInvalid(`The governance policy ${path} is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = PolicyFile.safeParse(json, ONCE);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
      throw policyFileInvalid(`The governance policy ${path} is invalid${where}: ${issue?.message ?? 'unknown problem'}`);
    }
    return parsed.data;
  };
  return {
    path,
    load: () => loadIfPresent() ?? defaults(),
    loadIfPresent,
    defaults,
    save(file) {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      // Written beside the target and renamed over it, so a crash leaves the old file or the new one, never half.
      const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        writeFileSync(temporary, `${JSON.stringify(PolicyFile.parse(file), null, 2)}\n`, { mode: 0o600 });
        chmodSync(temporary, 0o600);
        renameSync(temporary, path);
      } catch (error) {
        rmSync(temporary, { force: true });
        throw error;
      }
    },
  };
}
