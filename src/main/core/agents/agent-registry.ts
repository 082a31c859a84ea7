// The agents the desk can run, by id: the scripted agent, the known vendor agents, agents.json and `--agent-command`.
// Programs are looked up when asked for, so an agent installed while the desk runs is found without a restart.
import type { AgentInfo, AgentInstall, AgentSource, AgentState } from '../../../shared/agents';
import type { AgentNote } from './agent-notes';
import { findCommand, isExecutableFile, type Detection, type DetectionContext } from './agent-detection';
import type { AgentSpec } from './agent-spec';
import type { KnownAgent } from './known-agents';

export interface AgentRegistry {
  /** The spec to launch, with the program's absolute path when it was found; undefined for an unknown id. */
  get(id: string): AgentSpec | undefined;
  /** Whether the id names an agent, without looking for its program (a submission asks this, not where it is). */
  has(id: string): boolean;
  list(): AgentSpec[];
  /** Every agent with whether its program can be found and what the desk learnt of it, for `GET /api/agents` and the board. */
  describe(defaultAgent: string, facts?: (agentId: string) => AgentFacts): AgentInfo[];
  /** One agent as `describe` shows it, its program looked for alone (the start line asks about the default only). */
  describeOne(id: string, defaultAgent: string): AgentInfo | undefined;
  /** What Install gives npm for the agent: its agents.json `npmPackage`, else the known agent's package. */
  npmPackageOf(id: string): string | undefined;
}

/** What the desk learnt of an agent besides its program: from runs and tests (AgentNote) and its install. */
export interface AgentFacts extends AgentNote { install?: AgentInstall }

/** Settings' one word for an agent. Pure. */
export function agentState(available: boolean, facts: AgentFacts): AgentState {
  if (!available) return 'not-installed';
  if (facts.login) return 'needs-login';
  return facts.test?.outcome === 'ready' ? 'ready' : 'installed';
}

/** What a host decides about agents; a later source overrides an earlier one with the same id. */
export interface AgentCatalog {
  /** Built in and always present (its program is the desk's own Node or Electron). */
  scripted: AgentSpec;
  builtins: readonly KnownAgent[];
  /** From agents.json. */
  custom: readonly AgentSpec[];
  /** From `--agent-command`. */
  adHoc?: AgentSpec;
  /** Searched after PATH: the desk's and the repository's `node_modules/.bin`. */
  searchDirs: readonly string[];
  /** The desk's environment, for PATH and PATHEXT. */
  env: Readonly<Record<string, string | undefined>>;
}

export interface RegistryProbe {
  platform?: NodeJS.Platform;
  isExecutable?: (path: string) => boolean;
}

interface Entry { spec: AgentSpec; source: AgentSource; npmPackage?: string | undefined }

export function createAgentRegistry(catalog: AgentCatalog, probe: RegistryProbe = {}): AgentRegistry {
  const platform = probe.platform ?? process.platform;
  const context: DetectionContext = {
    env: catalog.env,
    platform,
    searchDirs: catalog.searchDirs,
    isExecutable: probe.isExecutable ?? ((path) => isExecutableFile(path, platform)),
  };
  const entries = new Map<string, Entry>();
  entries.set(catalog.scripted.id, { spec: catalog.scripted, source: 'builtin' });
  for (const { npmPackage, ...spec } of catalog.builtins) entries.set(spec.id, { spec, source: 'builtin', npmPackage });
  // An agents.json entry that replaces a known agent keeps its package and the file methods it is offered (Gemini
  // CLI cannot create files with reads through the desk) unless it names its own.
  for (const spec of catalog.custom) {
    const replaced = entries.get(spec.id);
    const fileMethods = spec.fileMethods ?? replaced?.spec.fileMethods;
    entries.set(spec.id, { spec: { ...spec, ...(fileMethods && { fileMethods }) }, source: 'config', npmPackage: spec.npmPackage ?? replaced?.npmPackage });
  }
  if (catalog.adHoc) entries.set(catalog.adHoc.id, { spec: catalog.adHoc, source: 'ad-hoc' });

  const launchable = ({ spec }: Entry, detection: Detection): AgentSpec => (detection.found ? { ...spec, command: detection.path } : spec);

  return {
    get(id) {
      const entry = entries.get(id);
      return entry && launchable(entry, findCommand(entry.spec.command, context));
    },
    has: (id) => entries.has(id),
    list: () => [...entries.values()].map((entry) => launchable(entry, findCommand(entry.spec.command, context))),
    describe: (defaultAgent, facts = () => ({})) => [...entries.values()].map((entry) => describeEntry(entry, findCommand(entry.spec.command, context), defaultAgent, facts(entry.spec.id))),
    describeOne: (id, defaultAgent) => {
      const entry = entries.get(id);
      return entry && describeEntry(entry, findCommand(entry.spec.command, context), defaultAgent, {});
    },
    npmPackageOf: (id) => entries.get(id)?.npmPackage,
  };
}

function describeEntry({ spec, source, npmPackage }: Entry, detection: Detection, defaultAgent: string, facts: AgentFacts): AgentInfo {
  const hint = npmPackage ? `; install it with "npm install -g ${npmPackage}"` : '';
  return {
    id: spec.id,
    name: spec.name,
    command: spec.command,
    args: [...spec.args],
    dialect: spec.dialect,
    source,
    available: detection.found,
    ...(detection.found ? { resolvedPath: detection.path } : { reason: `${detection.reason}${hint}` }),
    envAllowlist: [...spec.envAllowlist],
    isDefault: spec.id === defaultAgent,
    state: agentState(detection.found, facts),
    ...(npmPackage !== undefined && { npmPackage }),
    ...(facts.implementation && { implementation: facts.implementation }),
    ...(facts.login && { login: facts.login }),
    ...(facts.test && { test: facts.test }),
    ...(facts.install && { install: facts.install }),
  };
}
