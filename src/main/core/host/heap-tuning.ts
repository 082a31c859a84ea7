// The desk's memory stays flat when it is busy: V8's young generation otherwise grows to its maximum during a burst
// of submissions or agent output and keeps it (about 40 MB more resident memory after 10,000 tasks, measured with
// bench/serve-process.ts). The desk's garbage is short-lived request and event objects, so a young generation that
// stays at its starting size costs nothing measurable in throughput.
import { createRequire } from 'node:module';
import type * as V8 from 'node:v8';

/** Call once, first thing in a host process (serve, Electron's main), before the work starts. */
export function keepYoungGenerationSmall(): void {
  // --max-semi-space-size is read only when the heap is made; the growth factor is read at every resize.
  // Required here, not imported: the host's bundle would load node:v8 (~0.4 ms) before it listens, for a call made once
  // the start lines are out.
  (createRequire(import.meta.url)('node:v8') as typeof V8).setFlagsFromString('--semi-space-growth-factor=1');
}
