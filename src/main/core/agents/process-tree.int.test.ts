// Ending a process tree with real processes: nothing the tree started may outlive it, even one in a session of its own.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { endProcessTree, processExists } from './process-tree';

describe('endProcessTree', () => {
  it('waits for, and ends, a child that leads a session of its own and outlives its parent (as a sandbox\'s inner bubblewrap does)', async () => {
    // The child ignores SIGTERM and sits in its own session: once its parent is gone, no walk from the root finds it.
    const root = spawn('sh', ['-c', 'setsid sh -c \'trap "" TERM; echo $$; while :; do sleep 1; done\' & wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const [line] = (await once(root.stdout, 'data')) as [Buffer];
    const child = Number(line.toString().trim());
    expect(processExists(child)).toBe(true);

    await endProcessTree(root.pid!, { graceMs: 200, limitMs: 3000 });

    expect(processExists(child)).toBe(false);
  });
});
