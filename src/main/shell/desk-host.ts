// The core as the desktop app runs it: on 127.0.0.1 at the remembered port (a free one when that is taken),
// for one repository at a time, switchable without a restart. Electron-free, so it is tested in plain Node.
import { type AgentCatalog, type Core, createCore, type EventListener, PROMPT_PAD_ORIGIN } from '../core/index';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { APP_HOST, appOriginFor } from './app-origin';
import type { SettingsStore } from './desktop-settings';
import { choosePort, preferredPort } from './port-choice';

export interface DeskHostOptions {
  dataDir: string;
  token: string;
  settings: SettingsStore;
  appVersion: string;
  serverName: string;
  /** Built again for every start, so agents.json edits apply when the person opens a repository. */
  agents: () => AgentCatalog;
  /** better-sqlite3's binary for this runtime (Electron's own build); undefined under Node. */
  nativeBinding?: string;
  /** The built board (out/renderer), served by the core at /ui/. */
  uiDir?: string;
  isPortFree?: (port: number, host: string) => Promise<boolean>;
  log?: (message: string) => void;
}

export interface RunningDesk {
  core: Core;
  repoRoot: string;
  /** `http://127.0.0.1:<port>`: the endpoint for clients and the board's origin. */
  origin: string;
  port: number;
}

export interface DeskHost {
  current(): RunningDesk | undefined;
  /** Starts the core for `repoPath` (any folder inside a git repository); throws the core's clear errors. */
  open(repoPath: string): Promise<RunningDesk>;
  /**
   * Moves to another repository on the same port. The new core is built first, so a folder that is not a
   * usable repository leaves the running one untouched.
   */
  switchTo(repoPath: string): Promise<RunningDesk>;
  /** Listens to the events of whichever core runs now and later. */
  subscribe(listener: EventListener): () => void;
  /** Stops agents (their process groups), the server and the database. */
  close(): Promise<void>;
  /** Where the worktrees of every repository live, for the native extras' path checks. */
  readonly worktreesRoot: string;
}

export function createDeskHost(options: DeskHostOptions): DeskHost {
  const listeners = new Set<EventListener>();
  let running: (RunningDesk & { unsubscribe: () => void }) | undefined;

  const build = (repoPath: string) => createCore({
    repoPath,
    dataDir: options.dataDir,
    token: options.token,
    concurrency: 2,
    defaultAgent: 'scripted',
    agents: options.agents(),
    allowedHosts: [],
    allowedOrigins: [PROMPT_PAD_ORIGIN],
    serverName: options.serverName,
    appVersion: options.appVersion,
    ...(options.nativeBinding !== undefined && { nativeBinding: options.nativeBinding }),
    ...(options.uiDir !== undefined && { uiDir: options.uiDir }),
    ...(options.log && { log: options.log }),
    // Forge tokens and API addresses (GH_TOKEN, GITLAB_API_URL…) for pull requests.
    env: process.env,
  });

  const listen = async (core: Core, port: number): Promise<RunningDesk> => {
    let address: AddressInfo;
    try {
      address = await core.listen(port, APP_HOST);
    } catch (error) {
      await core.close();
      throw error;
    }
    const unsubscribe = core.bus.subscribe((event) => {
      for (const listener of listeners) listener(event);
    });
    running = { core, repoRoot: core.repoRoot, origin: appOriginFor(address.port), port: address.port, unsubscribe };
    options.settings.update({ port: address.port, repoPath: core.repoRoot });
    return running;
  };

  const stop = async () => {
    const stopping = running;
    running = undefined;
    if (!stopping) return;
    stopping.unsubscribe();
    await stopping.core.close();
  };

  return {
    worktreesRoot: join(options.dataDir, 'worktrees'),
    current: () => running,
    async open(repoPath) {
      if (running) throw new Error('The desk is already running; use switchTo.');
      const core = await build(repoPath);
      const port = await choosePort(preferredPort(options.settings.read()), APP_HOST, options.isPortFree);
      return listen(core, port);
    },
    async switchTo(repoPath) {
      const core = await build(repoPath);
      const port = running?.port ?? preferredPort(options.settings.read());
      await stop();
      return listen(core, await choosePort(port, APP_HOST, options.isPortFree));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: stop,
  };
}
