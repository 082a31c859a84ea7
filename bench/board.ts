// How the board copes with many tasks: time until 1,000 queued cards are listed, and frame times while
// scrolling that column, in Debian's Chromium against a real `serve`. Run by hand: npm run bench:board.
import { isolateGitConfig } from '../src/main/core/testing';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { launchBrowser } from '../e2e/web/support/browser';
import { serveDesk } from '../e2e/web/support/desk-server';
import { readCount } from './bench-support';

const count = readCount(process.argv.slice(2), '--count', 1000);
const root = resolve(import.meta.dirname, '..');
execFileSync(process.execPath, [resolve(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });

const restoreGit = isolateGitConfig();
const desk = await serveDesk();
const browser = await launchBrowser();
try {
  // Every task waits for one that never comes, so they all stay queued in one long column.
  for (let next = 0; next < count;) {
    const batch = Array.from({ length: Math.min(16, count - next) }, (_, i) => next + i);
    await Promise.all(batch.map((n) => desk.api('POST', '/', { id: `t${String(n).padStart(4, '0')}`, prompt: `Task number ${n}\nsay ${n}`, dependencies: ['never'] })));
    next += batch.length;
  }

  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const started = Date.now();
  await page.goto(desk.boardUrl);
  const queued = page.getByRole('region', { name: 'Queued', exact: true });
  // The column's count badge reads "1000 tasks" to a screen reader: compare its digits.
  await page.waitForFunction((expected) => {
    const badge = document.querySelector('[aria-label="Queued"] .column-count');
    return badge?.textContent?.replace(/\D/g, '') === expected;
  }, String(count), { timeout: 60_000 });
  await queued.getByRole('article').first().waitFor();
  const loadMs = Date.now() - started;

  // Scroll the column by a steady step each frame for two seconds, recording every frame's duration.
  // Sent as source text: tsx would wrap named functions in a helper the page does not have.
  const frames = await page.evaluate(`(async () => {
    const region = document.querySelector('[aria-label="Queued"]');
    const scroller = [...region.querySelectorAll('*')].find((el) => el.scrollHeight > el.clientHeight + 10 && getComputedStyle(el).overflowY !== 'visible');
    if (!scroller) throw new Error('no scrolling element in the Queued column');
    const durations = [];
    let last = performance.now();
    const until = last + 2000;
    await new Promise((done) => {
      const step = (now) => {
        durations.push(now - last);
        last = now;
        scroller.scrollTop += 120;
        if (now < until) requestAnimationFrame(step); else done();
      };
      requestAnimationFrame(step);
    });
    return { durations, cardsInDom: region.querySelectorAll('article').length };
  })()`) as { durations: number[]; cardsInDom: number };
  const sorted = [...frames.durations].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const janky = sorted.filter((d) => d > 50).length;
  console.log(`board: ${count} tasks listed in ${loadMs} ms; ${frames.cardsInDom} cards in the DOM`);
  console.log(`board scroll: ${sorted.length} frames, median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${at(1).toFixed(1)} ms, ${janky} over 50 ms`);
  console.log(`board ratio: median frame / 16.7 ms budget = ${(at(0.5) / 16.7).toFixed(2)}`);
} finally {
  await browser.close();
  await desk.stop();
  restoreGit();
}
