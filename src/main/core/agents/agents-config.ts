// Custom agents from `<dataDir>/agents.json`: parsed and checked once at start, so a bad file stops the desk with a clear message.
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../../shared/lazy-schema';
import { AgentDialect, AgentSpec } from './agent-spec';
import { DeskError } from '../../../shared/desk-error';

export const AGENTS_CONFIG_FILE = 'agents.json';

/** The id `--agent-command` gives its agent; a file entry may not take it. */
export const AD_HOC_AGENT_ID = 'ad-hoc';

const AgentId = lazySchema(() => z.string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be letters, digits, ".", "_" or "-", starting with a letter or digit')
  .max(100, 'must be at most 100 characters')
  .refine((id) => id !== AD_HOC_AGENT_ID, `"${AD_HOC_AGENT_ID}" is reserved for --agent-command`));

const Command = lazySchema(() => z.string().min(1, 'must not be empty').refine(
  (command) => isAbsolute(command) || !/[\\/]/.test(command),
  'must be a program name (looked up on PATH) or an absolute path; a relative path would differ per worktree',
));

const VariableName = lazySchema(() => z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'));

const ConfigEntry = lazySchema(() => z.object({
  id: AgentId,
  name: z.string().min(1).optional(),
  command: Command,
  args: z.array(z.string()).default([]),
  // Unlike a built-in, a custom agent may speak either dialect; the desk finds out at `initialize`.
  dialect: AgentDialect.default('auto'),
  envAllowlist: z.array(VariableName).default([]),
  env: z.record(VariableName, z.string()).default({}),
  // The rest means what it means in AgentSpec, checked alike. An entry replacing a known agent keeps the known agent's
  // fileMethods unless it names its own; its npmPackage (a package, `name@version`, a tarball path) overrides the known one.
  ...AgentSpec.pick({
    authMethod: true, fileMethods: true, stateDirs: true, stateFiles: true, loginFiles: true, networkHosts: true, confinedMode: true, confinedAskMode: true,
    endpointFiles: true, npmPackage: true,
  }).shape,
  /** For an agent slow to start: how long each handshake step may wait (default 30 000 ms). */
  handshakeTimeoutMs: z.number().int().min(1000, 'must be at least 1000 (ms)').max(600_000, 'must be at most 600000 (ms)').optional(),
}).strict());

const AgentsConfig = lazySchema(() => z.object({ agents: z.array(ConfigEntry) }).strict());

export const agentsConfigInvalid = (message: string) => new DeskError('invalid', 'agents_config_invalid', message);

/** Parses the file's text; `file` only names it in messages. Ids must be unique within the file. */
export function parseAgentsConfig(text: string, file: string): AgentSpec[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw agentsConfigInvalid(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = AgentsConfig.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? fieldPath(issue.path) : '(the file)';
    throw agentsConfigInvalid(`${file}: ${where}: ${issue?.message ?? 'is invalid'}`);
  }
  const seen = new Set<string>();
  return parsed.data.agents.map((entry, index) => {
    if (seen.has(entry.id)) throw agentsConfigInvalid(`${file}: agents[${index}].id: "${entry.id}" appears more than once`);
    seen.add(entry.id);
    return { ...entry, name: entry.name ?? entry.id };
  });
}

/** Reads `<dataDir>/agents.json`; no file means no custom agents. */
export function loadAgentsConfig(dataDir: string, read: (path: string) => string = (path) => readFileSync(path, 'utf8')): AgentSpec[] {
  const file = join(dataDir, AGENTS_CONFIG_FILE);
  let text: string;
  try {
    text = read(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw agentsConfigInvalid(`Cannot read ${file}: ${(error as Error).message}`);
  }
  return parseAgentsConfig(text, file);
}

/** `agents[0].envAllowlist[2]`: the way a person finds the spot in the file. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}${text ? '.' : ''}${String(key)}`), '');
}
