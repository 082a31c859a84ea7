// The intake bench's desk as the app runs it: the core's TypeScript bundled by rolldown (the bundler `npm run build`
// uses), not compiled module by module by tsx. tsx compiles with esbuild's keepNames, which wraps every named function
// the code creates in a call that sets its name: the desk makes a few closures per submission, the built app never
// makes that call, and the bare baseline's callbacks have no names to set. On one warm desk, alternating, the built
// code took 0.94-0.98 of tsx's time per submission.
// The core finds some files next to its own modules (the sandbox's network bridge, the scripted agent): a desk that runs
// agents is bundled into out/main, beside the app's own build of them (`npm run build` first), so it finds those.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type * as TestingModule from '../src/main/core/testing';

type Testing = typeof TestingModule;

const ROOT = resolve(import.meta.dirname, '..');
const OUT_DIR = join(ROOT, 'node_modules', '.cache', 'assignment-desk-bench');

/** The app's build, where the bundled bridge and agent are. */
export const APP_BUILD_DIR = join(ROOT, 'out', 'main');

/**
 * Bundles the core's test door (packages stay in node_modules) and imports the bundle, written to `dir` (a folder
 * of its own by default; APP_BUILD_DIR for a desk that runs agents in the sandbox).
 */
export async function loadBuiltDesk(dir = OUT_DIR): Promise<Pick<Testing, 'startDesk' | 'destroyDesk' | 'TEST_TOKEN' | 'scriptedAgentSpec' | 'RUN_STAGES'>> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bench-testing-${process.pid}.mjs`);
  // Built by a process of its own (see bundle-desk.mjs): the desk measured here then carries no bundler's memory.
  await promisify(execFile)(process.execPath, [join(ROOT, 'bench', 'bundle-desk.mjs'), join(ROOT, 'src', 'main', 'core', 'testing.ts'), file], { cwd: ROOT });
  try {
    return await import(pathToFileURL(file).href) as Testing;
  } finally {
    // Loaded now; the packages it requires later are found from its folder, which stays.
    rmSync(file, { force: true });
  }
}
