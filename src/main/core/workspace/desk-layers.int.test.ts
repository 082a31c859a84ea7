// A desk's layers start work in the background (clearing what an earlier run left, probing whether layers mount here):
// a desk stopped right after it started waits for that work, so nothing is made again in a data dir removed after it.
import { existsSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startDesk } from '../test-support/desk-harness';

describe('a desk stopped at once', () => {
  it('leaves nothing behind in its data dir once the person removes it', async () => {
    for (let round = 0; round < 3; round++) {
      const desk = await startDesk({ layers: 'auto' });
      await desk.close();
      rmSync(desk.root, { recursive: true, force: true });
      // Longer than the probe of a layer takes to mount and remove its folders.
      await sleep(300);
      expect(existsSync(desk.root), `round ${round}: ${desk.root} was made again after the desk stopped`).toBe(false);
    }
  });
});
