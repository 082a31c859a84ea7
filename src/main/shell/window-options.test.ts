import { describe, expect, it } from 'vitest';
import { boardWindowOptions } from './window-options';

describe('the board window', () => {
  const options = boardWindowOptions({ preloadPath: '/app/out/preload/index.cjs', bounds: { width: 1200, height: 800 }, devTools: false });
  const web = options.webPreferences ?? {};

  it('isolates the page from Node and from the preload, in Chromium\'s sandbox', () => {
    expect(web).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInWorker: false, nodeIntegrationInSubFrames: false });
  });

  it('keeps web security on and insecure content, webviews and experimental features off', () => {
    expect(web).toMatchObject({ webSecurity: true, allowRunningInsecureContent: false, webviewTag: false, experimentalFeatures: false });
  });

  it('loads the preload it was given and hides developer tools in an installed app', () => {
    expect(web.preload).toBe('/app/out/preload/index.cjs');
    expect(web.devTools).toBe(false);
  });

  it('opens hidden until the board is ready, centred when no place is known', () => {
    expect(options.show).toBe(false);
    expect(options).not.toHaveProperty('x');
    expect(options).toMatchObject({ width: 1200, height: 800 });
  });

  it('opens at the restored place when there is one', () => {
    const placed = boardWindowOptions({ preloadPath: '/p.cjs', bounds: { x: 40, y: 50, width: 900, height: 700 }, devTools: true });
    expect(placed).toMatchObject({ x: 40, y: 50, width: 900, height: 700 });
    expect(placed.webPreferences?.devTools).toBe(true);
  });
});
