// Takes the README's picture of the board (docs/board.png): a headless desk on a demo repository with tasks in
// each column, shown in Debian's Chromium. Run `npm run build` first (the board is served from out/), then
// `npm run docs:screenshot`.
import { join, resolve } from 'node:path';
import { launchBrowser } from '../e2e/web/support/browser';
import { serveDesk } from '../e2e/web/support/desk-server';

const OUTPUT = resolve(import.meta.dirname, '..', 'docs', 'board.png');

const desk = await serveDesk({ policy: { version: 1, defaults: { capabilities: { execute: 'allow' } } } });
const browser = await launchBrowser();
try {
  const submit = (id: string, prompt: string, dependencies: string[] = []) => desk.api('POST', '/', { id, prompt, dependencies });
  const page = await browser.newPage({ viewport: { width: 1400, height: 380 }, colorScheme: 'light' });
  await page.goto(desk.boardUrl);
  const card = (column: string, id: string) => page.getByRole('region', { name: column }).getByRole('article', { name: `Task ${id}`, exact: true });
  // Two agents run at once: the quick tasks finish first, then one asks and one keeps working.
  await submit('greeting', 'Greet in Spanish\nwrite src/app.js export const greet = () => "hola";\nsay Done: greet() says hola.');
  await submit('tests', 'Add a test for greet()\nwrite test/app.test.js import { greet } from "../src/app.js";');
  await card('Review', 'greeting').waitFor();
  await card('Review', 'tests').waitFor();
  await desk.api('POST', '/tasks/greeting/approve');
  await submit('changelog', 'Start a changelog\nask May I add a changelog?\nwrite CHANGELOG.md # Changes');
  await submit('docs', 'Document greet()\nthink Reading src/app.js first\nwrite docs/greet.md greet() returns a greeting\nsleep 600000');
  await submit('release', 'Tag the release notes\nwrite NOTES.md Release notes', ['changelog']);
  await card('Done', 'greeting').waitFor();
  await card('Needs input', 'changelog').waitFor();
  await card('Working', 'docs').waitFor();
  await card('Queued', 'release').waitFor();
  await page.screenshot({ path: OUTPUT });
  process.stdout.write(`Wrote ${join('docs', 'board.png')}\n`);
} finally {
  await browser.close();
  await desk.stop();
}
