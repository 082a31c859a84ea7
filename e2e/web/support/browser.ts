// Debian's Chromium driven by playwright-core, for specs that use the board as a person would.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.DESK_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = resolve(import.meta.dirname, '../../artifacts');

/**
 * Whether the browser specs can run. In CI a missing Chromium is a failure (.ci/run installs it);
 * on a developer machine the specs skip with this reason.
 */
export function browserUnavailable(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `Chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set DESK_CHROMIUM)`;
  if (process.env.CI) throw new Error(reason);
  return reason;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Without the networking flags Chromium keeps trying to reach Google's services on a closed network.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

/** Keeps what the person saw at the end of a spec, for the CI artifacts. */
export async function keepScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
