// Headless host: the core plus its HTTP endpoint in plain Node, for servers, scripts, tests and browsers.
// Loaded by serve.ts (built: from the one-file bundle beside it, with V8's code cache); the files it finds (the board, the scripted agent) are beside that entry.
import { adHocAgentSpec, type Core, type ProbeMemory, type RememberedProbe, type RepositoryDiscovery, createCore, defaultDataDir, hostAgentCatalog, keepYoungGenerationSmall, KNOWN_AGENTS, loadOrCreateToken, lockDataDir, scriptedAgentSpec } from './core/index';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseServeOptions, USAGE } from './serve-options';
import { isDeskError } from '../shared/desk-error';
import type { SandboxStatus } from '../shared/sandbox';

const APP_VERSION = '0.1.0';
const EXIT_USAGE = 2;

async function main(argv: string[], entryUrl: string, hooks: ServeHooks, early: EarlyStart): Promise<void> {
  const options = parseServeOptions(argv);
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const dataDir = resolve(options.dataDir ?? defaultDataDir(process.platform, process.env, homedir()));
  const lock = lockDataDir(ensureDir(dataDir));
  let core: Core | undefined;
  try {
    const agents = hostAgentCatalog({
      dataDir,
      scripted: scriptedAgentSpec(scriptedAgentEntry(entryUrl)),
      ...(options.agentCommand && {
        adHoc: adHocAgentSpec({ words: options.agentCommand, cwd: process.cwd(), known: KNOWN_AGENTS, ...(options.agentDialect && { dialect: options.agentDialect }) }),
      }),
      deskRoot: deskRoot(entryUrl),
      env: process.env,
    });
    const token = options.token !== undefined ? { token: options.token, path: undefined } : loadOrCreateToken(dataDir);
    core = await createCore({
      repoPath: resolve(options.repo),
      moreRepos: options.moreRepos.map((path) => resolve(path)),
      dataDir,
      token: token.token,
      ...(options.baseBranch !== undefined && { baseBranch: options.baseBranch }),
      concurrency: options.concurrency,
      defaultAgent: options.agent,
      agents,
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
      serverName: options.serverName ?? `Assignment Desk on ${hostname()}`,
      appVersion: APP_VERSION,
      uiDir: builtRendererDir(entryUrl),
      ...(early.sandbox && { sandboxProbe: early.sandbox }),
      ...(early.probeMemory && { probeMemory: early.probeMemory }),
      ...(early.repository && { repositoryDiscovery: early.repository }),
      // Forge tokens and API addresses (GH_TOKEN, GITLAB_API_URL…) for pull requests.
      env: process.env,
    });
    const address = await core.listen(options.port, options.host);
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    // The start lines go out in one write: whoever waits for the last one (a script, the bench) is woken once.
    const lines: string[] = [];
    const print = (line: string) => lines.push(line);
    print(`Assignment Desk ${APP_VERSION}: ${core.repoRoot} (tasks start from ${core.baseBranch}), agent ${options.agent}, ${options.concurrency} at a time`);
    print(token.path ? `Token kept in ${token.path} (send it as "Authorization: Bearer <token>")` : 'Token given with --token');
    print(`Data in ${dataDir}`);
    const repos = core.repos.list();
    if (repos.length > 1) {
      for (const repo of repos) print(`Repository ${repo.name}: ${repo.root} at http://${shownHost}:${address.port}/r/${repo.name}/${repo.isDefault ? ' and /' : ''}`);
    }
    print(core.sandbox.available
      ? `Sandbox: agents run confined by ${core.sandbox.version ?? 'bubblewrap'} (see docs/security.md)`
      : `Sandbox: none — agents run unsandboxed. ${core.sandbox.reason ?? ''} ${core.sandbox.fix ?? ''}`.trim());
    const chosen = core.agents.describeOne(options.agent, options.agent);
    if (chosen && !chosen.available) process.stderr.write(`Warning: the default agent "${chosen.id}" cannot start: ${chosen.reason}\n`);
    // The token rides in the fragment, which browsers never send to a server or put in logs.
    print(`Board: http://${shownHost}:${address.port}/ui/#token=${encodeURIComponent(token.token)}`);
    // Last, because scripts and tests wait for this line to know the desk is ready.
    print(`Listening on http://${shownHost}:${address.port}`);
    process.stdout.write(`${lines.join('\n')}\n`);
    hooks.started?.();
    // After the start (V8 refuses kept code made under other flags than it checks it with), before any work.
    keepYoungGenerationSmall();
  } catch (error) {
    await core?.close();
    lock.release();
    throw error;
  }
  stopOnSignals(core, lock);
}

function stopOnSignals(core: Core, lock: { release(): void }): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`Received ${signal} again; exiting now.\n`);
      process.exit(1);
    }
    stopping = true;
    process.stderr.write(`Received ${signal}; stopping agents and closing the database…\n`);
    void core.close().then(
      () => { lock.release(); process.exit(0); },
      (error: unknown) => { process.stderr.write(`Could not stop cleanly: ${String(error)}\n`); lock.release(); process.exit(1); },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // A promise some request or agent left rejected must not take every other task down with it: say it, keep serving.
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(`Unexpected error (the desk keeps running): ${reason instanceof Error ? reason.stack : String(reason)}\n`);
  });
}

/** The renderer electron-vite built: beside out/main when running the build, in out/ when running from source. */
function builtRendererDir(entryUrl: string): string {
  const here = dirname(fileURLToPath(entryUrl));
  // From source, `../renderer` is src/renderer, whose index.html is the unbuilt page.
  const fromSource = entryUrl.endsWith('.ts');
  return fromSource ? resolve(here, '../../out/renderer') : resolve(here, '../renderer');
}

/** The bundled scripted agent next to this file, or its source when running from source. */
function scriptedAgentEntry(entryUrl: string): string {
  const here = dirname(fileURLToPath(entryUrl));
  const bundled = resolve(here, 'scripted-agent.cjs');
  return existsSync(bundled) ? bundled : resolve(here, '../scripted-agent/scripted-agent-main.ts');
}

/** The desk's install: two levels above out/main/serve.js (and above src/main/serve.ts when run from source). */
function deskRoot(entryUrl: string): string {
  return resolve(dirname(fileURLToPath(entryUrl)), '..', '..');
}

function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** What the entry wants to hear of the start: `started` once the desk listens (serve.ts keeps V8's code then). */
export interface ServeHooks {
  started?(): void;
}

/** Work the entry started before the host's code loaded, so that it ran meanwhile. */
export interface EarlyStart {
  /** The sandbox probe, perhaps answered from memory (core/sandbox/remembered-sandbox-probe.ts); the core starts its own when left out. */
  sandbox?: RememberedProbe<SandboxStatus>;
  /** Where trial answers are kept between starts (core/host/probe-memory.ts). */
  probeMemory?: ProbeMemory;
  /** Git's discovery of the first --repo (core/git/repository-discovery.ts); the core asks git itself when left out. */
  repository?: RepositoryDiscovery;
}

/** Runs the headless host; `entryUrl` is serve.ts's (or the built serve.js's) own URL. A refusal exits with code 2. */
export function runServe(argv: string[], entryUrl: string, hooks: ServeHooks = {}, early: EarlyStart = {}): void {
  main(argv, entryUrl, hooks, early).catch((error: unknown) => {
    const message = isDeskError(error, 'usage') || (error instanceof Error && 'code' in error) ? (error as Error).message : String(error instanceof Error ? error.stack : error);
    process.stderr.write(`assignment-desk: ${message}\n`);
    process.exit(EXIT_USAGE);
  });
}
