// Electron entry: hosts the core with the user's data dir and shows the board in a window.
// The desktop shell (tray, notifications, native extras, packaging) grows here; the core stays Electron-free.
import { app, BrowserWindow, dialog } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostname } from 'node:os';
import { hostAgentCatalog } from './core/agents/agent-catalog';
import { scriptedAgentSpec } from './core/agents/builtin-agents';
import { createCore, type Core } from './core/core';
import { loadOrCreateToken } from './core/host/token-file';
import { PROMPT_PAD_ORIGIN } from './core/http/security';

const PORT = 1337;
const here = dirname(fileURLToPath(import.meta.url));
let core: Core | undefined;

async function start(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();
  const dataDir = app.getPath('userData');
  const { token } = loadOrCreateToken(dataDir);
  // Until the window lets a person pick a repository, it comes from the environment or the launch folder.
  const repoPath = process.env.ASSIGNMENT_DESK_REPO ?? process.cwd();
  core = await createCore({
    repoPath, dataDir, token, concurrency: 2, defaultAgent: 'scripted',
    agents: hostAgentCatalog({
      dataDir,
      // Electron's own binary runs the bundled agent as plain Node.
      scripted: { ...scriptedAgentSpec(join(here, 'scripted-agent.js')), env: { ELECTRON_RUN_AS_NODE: '1' } },
      // A packaged app has no node_modules/.bin of its own; from a checkout (`npm start`) the project's is searched.
      ...(!app.isPackaged && { deskRoot: app.getAppPath() }),
      env: process.env,
    }),
    allowedHosts: [], allowedOrigins: [PROMPT_PAD_ORIGIN], serverName: `Assignment Desk on ${hostname()}`, appVersion: app.getVersion(),
  });
  const address = await core.listen(PORT, '127.0.0.1');
  const window = new BrowserWindow({
    width: 1280, height: 800,
    webPreferences: { preload: join(here, '../preload/index.cjs'), contextIsolation: true, sandbox: true, nodeIntegration: false },
  });
  const fragment = `#endpoint=${encodeURIComponent(`http://127.0.0.1:${address.port}`)}&token=${encodeURIComponent(token)}`;
  await window.loadURL(`file://${join(here, '../renderer/index.html')}${fragment}`);
}

app.on('window-all-closed', () => app.quit());
app.on('will-quit', (event) => {
  if (!core) return;
  event.preventDefault();
  const closing = core;
  core = undefined;
  void closing.close().finally(() => app.quit());
});

start().catch((error: unknown) => {
  dialog.showErrorBox('Assignment Desk cannot start', error instanceof Error ? error.message : String(error));
  app.exit(2);
});
