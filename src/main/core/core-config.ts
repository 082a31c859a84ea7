// Everything a host (the Electron app or the headless CLI) decides when it builds the core.
import type { LayerMode } from './workspace/layer-choice';
import type { z } from 'zod';
import type { SandboxStatus } from '../../shared/sandbox';
import type { RunnersConfig } from '../../shared/runners';
import type { AgentCatalog } from './agents/agent-registry';
import type { RepositoryDiscovery } from './git/repository-discovery';
import type { ProbeMemory } from './host/probe-memory';
import type { RememberedProbe } from './host/remembered-probe';

export interface CoreConfig {
  /** The git repository tasks run against (any path inside it). */
  repoPath: string;
  /**
   * More repositories to open besides `repoPath` (the default, which `/` speaks for); each keeps being opened at
   * later starts, as do those added while the desk runs.
   */
  moreRepos?: string[];
  /** Where the database, worktrees and token live. */
  dataDir: string;
  token: string;
  /** Tasks start from this branch; default: the repository's current branch. */
  baseBranch?: string;
  /** Agents that may run at once. */
  concurrency: number;
  defaultAgent: string;
  /** The core adds the repository's `node_modules/.bin` to `searchDirs`. */
  agents: AgentCatalog;
  allowedHosts: string[];
  allowedOrigins: string[];
  serverName: string;
  appVersion: string;
  /** better-sqlite3's native binary to load instead of its own: the Electron build, in the desktop app. */
  nativeBinding?: string;
  /** The built renderer (out/renderer), served at /ui/; the board is not served when left out. */
  uiDir?: string;
  /**
   * What confines agents; default: found out by trying bubblewrap at start. Tests pass a fixed answer (the headless
   * host passes `sandboxProbe` instead).
   */
  sandbox?: SandboxStatus | Promise<SandboxStatus>;
  /**
   * Whether a new task's worktree is a copy-on-write layer over a shared snapshot of its base or a checkout of its own
   * (docs/git.md, workspace/layer-choice.ts): `auto` (default) as the repository's size and setup say; `always`; `never`.
   */
  layers?: LayerMode;
  /**
   * The headless host's sandbox probe, started before it loaded the core, which may answer from the last start's memory
   * (core/sandbox/remembered-sandbox-probe.ts); the desk then checks it live before any task runs. Wins over `sandbox`.
   */
  sandboxProbe?: RememberedProbe<SandboxStatus>;
  /** Where the answers of the start's trial runs are kept for the next start; without, every start runs them first. */
  probeMemory?: ProbeMemory;
  /** The headless host's discovery of the default repository, started before it loaded the core (used for `repoPath` only). */
  repositoryDiscovery?: RepositoryDiscovery;
  /** Bounds on stored agent output; see ARCHITECTURE §13. */
  output?: {
    /** Output bytes stored per task at most; the start and the newest output are kept. Default 50 MB. */
    capBytes?: number;
    /** Days the events of rejected, replaced or removed tasks are kept. Default 7. */
    retentionDays?: number;
  };
  /** Where agents may run; default: `<dataDir>/runners.json`, else `local` alone (docs/runners.md). */
  runners?: z.input<typeof RunnersConfig>;
  /**
   * The desk's own environment (the host passes `process.env`): forge tokens (GH_TOKEN, GITHUB_TOKEN, GITLAB_TOKEN) and
   * API addresses (GITHUB_API_URL, GITLAB_API_URL) are read from it, and go to the forge's API only. Default: empty.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** The person's home, where `gh` and `glab` keep their logins; default: os.homedir(). */
  home?: string;
  /** How often open pull/merge requests are read again from their forges; default 60 s. */
  pullRequestPollMs?: number;
  /** How long the judge of a task's attempts may take before it is stopped and a person chooses; default 15 min. */
  judgeTimeoutMs?: number;
  now?: () => Date;
  /** Tests: hold every JSON answer to the schema its route declares; a mismatch answers 500 and is logged. */
  checkAnswers?: boolean;
  log?: (message: string) => void;
}
