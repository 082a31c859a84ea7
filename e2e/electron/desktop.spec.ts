// The desktop app in real Electron: it launches, shows the board, keeps the page sandboxed and on its own
// origin, and leaves no agent behind when it quits. Skipped, saying why, where Electron's binary is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processExists } from '../../src/main/core/agents/process-tree';
import { isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { buildDesktopApp, descendants, launchDesktopApp, PROJECT_ROOT, type DesktopApp } from './desktop-app';
import { electronUnavailable } from './electron-binary';

const unavailable = electronUnavailable(PROJECT_ROOT);
let restoreGit: () => void = () => undefined;

describe.skipIf(unavailable !== undefined)(`the desktop app${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(() => {
    restoreGit = isolateGitConfig();
    buildDesktopApp();
  }, 600_000);
  afterAll(() => restoreGit());

  describe('its window', () => {
    let desk: DesktopApp;
    beforeAll(async () => { desk = await launchDesktopApp(); }, 120_000);
    afterAll(async () => { await desk?.quit(); });

    it('shows the board from the app\'s own origin, with the token in the fragment only', async () => {
      await desk.page.getByRole('region', { name: 'Queued' }).waitFor();
      const url = new URL(desk.page.url());
      expect(url.origin).toBe(desk.origin);
      expect(url.pathname).toBe('/ui/');
      expect(url.search).toBe('');
      expect(new URLSearchParams(url.hash.slice(1)).get('token')).toBe(desk.token);
    });

    it('runs the page isolated, sandboxed and without Node', async () => {
      // getLastWebPreferences is what Electron's own specs read; it is left out of the public typings.
      const preferences = await desk.app.evaluate(({ BrowserWindow }) => {
        const contents = BrowserWindow.getAllWindows()[0]?.webContents as unknown as { getLastWebPreferences(): unknown } | undefined;
        return contents?.getLastWebPreferences();
      });
      expect(preferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
      expect(await desk.page.evaluate(() => [typeof (globalThis as { require?: unknown }).require, typeof (globalThis as { process?: unknown }).process])).toEqual(['undefined', 'undefined']);
    });

    it('offers the page exactly the typed native extras', async () => {
      const bridge = await desk.page.evaluate(() => Object.keys((globalThis as unknown as { desk: object }).desk).sort());
      expect(bridge).toEqual(['onFocusTask', 'openInEditor', 'pickRepository', 'revealPath', 'runtime']);
    });

    it('refuses the page a native extra outside the repository and its worktrees', async () => {
      const result = await desk.page.evaluate(() => (globalThis as unknown as { desk: { revealPath(path: string): Promise<unknown> } }).desk.revealPath('/etc'));
      expect(result).toMatchObject({ ok: false });
    });

    it('stays on its origin: no navigation away and no new windows', async () => {
      const opened = await desk.page.evaluate(() => window.open('https://example.com/') === null);
      await desk.page.evaluate(() => { window.location.href = 'https://example.com/'; });
      await desk.page.waitForTimeout(500); // nothing to await: the point is that no navigation happens
      expect(opened).toBe(true);
      expect(new URL(desk.page.url()).origin).toBe(desk.origin);
      expect(desk.app.windows()).toHaveLength(1);
    });

    it('sends the board with a strict Content-Security-Policy', async () => {
      const response = await desk.page.reload();
      const policy = response?.headers()['content-security-policy'] ?? '';
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain(`connect-src 'self' ${desk.origin.replace('http:', 'ws:')}`);
    });
  });

  it.skipIf(process.platform === 'win32')('leaves no agent process behind when it quits', async () => {
    const desk = await launchDesktopApp();
    const appPid = desk.app.process().pid;
    if (appPid === undefined) throw new Error('Electron has no pid');
    expect((await desk.api('POST', '/', { id: 'long', prompt: 'sleep 60000' })).status).toBe(202);
    await expect.poll(async () => (await desk.api('GET', '/tasks/long')).json?.status, { timeout: 30_000 }).toBe('in-progress');
    await expect.poll(() => descendants(appPid).filter((p) => p.command.includes('scripted-agent')).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const agents = descendants(appPid).filter((p) => p.command.includes('scripted-agent'));
    await desk.quit();
    expect(agents.filter(({ pid }) => processExists(pid))).toEqual([]);
  }, 120_000);
});
