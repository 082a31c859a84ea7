// The desk's record of when each run reached each stage: real SQLite, git, sandbox (where available) and scripted agent.
import { describe, expect, it } from 'vitest';
import { RUN_STAGES } from './run-timings';
import { deskPerFile } from '../test-support/desk-harness';

const desk = deskPerFile();

describe('run timings', () => {
  it('record every stage of a task that commits, in the order the run reaches them', async () => {
    await desk().api('POST', '/', { id: 'timed', prompt: 'write timed.txt hello' });
    await desk().waitForStatus('timed', 'completed');

    const timing = desk().core.runTimings.of('timed');
    expect(timing?.attempt).toBe(1);
    const reached = RUN_STAGES.map((stage) => timing?.stages[stage]);
    expect(reached.every((at) => at !== undefined && at >= 0)).toBe(true);
    expect(reached).toEqual([...reached].sort((a, b) => (a ?? 0) - (b ?? 0)));
  });

  it('stop at the stage a failing run got to', async () => {
    await desk().api('POST', '/', { id: 'failing', prompt: 'fail on purpose' });
    await desk().waitForStatus('failing', 'error');

    const stages = desk().core.runTimings.of('failing')?.stages ?? {};
    expect(stages['first-update']).toBeUndefined();
    expect(stages.committed).toBeUndefined();
    expect(stages.final).toBeGreaterThanOrEqual(stages.session ?? Infinity);
  });
});
