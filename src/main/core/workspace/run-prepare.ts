// Runs a repository's `prepare` (e.g. `npm ci`) once in a new snapshot of its base (./snapshot-store.ts). It is the
// person's own command, from their checkout's `.desk/config.json` or the desk's settings, never from a task's work, and it
// needs what the person's own `npm ci` needs (the registry, the package cache in the home): it runs as their command
// would, in the snapshot's tree, outside the sandbox. Its output goes to the activity of the task that asked for it.
import { spawn } from 'node:child_process';
import type { RunPrepare } from './snapshot-store';
import { createTextTail } from '../tasks/text-tail';

/** The output's end kept for the error when the command fails. */
const TAIL_CHARS = 4000;

export const runPrepareCommand: RunPrepare = (dir, command, onOutput) => new Promise((resolve) => {
  const tail = createTextTail(TAIL_CHARS);
  const child = spawn('sh', ['-c', command], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const seen = (chunk: Buffer) => {
    const text = chunk.toString();
    tail.append(text);
    onOutput(text);
  };
  child.stdout.on('data', seen);
  child.stderr.on('data', seen);
  child.once('error', (error) => resolve({ exitCode: null, tail: error.message }));
  child.once('close', (exitCode, signal) => resolve({ exitCode, signal, tail: tail.text() }));
});
