import { describe, expect, it } from 'vitest';
import { workingMsAt, workingTimePatch } from './working-time';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, seconds)).toISOString();

describe('working time', () => {
  it('opens a stretch when the task starts working', () => {
    expect(workingTimePatch({ status: 'queued', workingMs: 0 }, 'in-progress', at(0))).toEqual({ workingSince: at(0) });
  });

  it('adds the stretch when the agent stops to wait for a person, and opens another when it goes on', () => {
    const asking = workingTimePatch({ status: 'in-progress', workingMs: 0, workingSince: at(0) }, 'awaiting-input', at(3));
    expect(asking).toEqual({ workingMs: 3000, workingSince: null });
    const resumed = workingTimePatch({ status: 'awaiting-input', workingMs: 3000 }, 'in-progress', at(60));
    expect(resumed).toEqual({ workingSince: at(60) });
    expect(workingTimePatch({ status: 'in-progress', workingMs: 3000, workingSince: at(60) }, 'completed', at(61)))
      .toEqual({ workingMs: 4000, workingSince: null });
  });

  it('does not count time queued or in review', () => {
    expect(workingTimePatch({ status: 'queued', workingMs: 1000 }, 'cancelled', at(500))).toEqual({});
    expect(workingTimePatch({ status: 'completed', workingMs: 1000 }, 'queued', at(900))).toEqual({});
  });

  it('changes nothing when the status stays', () => {
    expect(workingTimePatch({ status: 'in-progress', workingMs: 0, workingSince: at(0) }, 'in-progress', at(9))).toEqual({});
    expect(workingTimePatch({ status: 'in-progress', workingMs: 0, workingSince: at(0) }, undefined, at(9))).toEqual({});
  });

  it('drops a stretch an earlier run of the desk left open instead of counting the time it was down', () => {
    expect(workingTimePatch({ status: 'in-progress', workingMs: 2000, workingSince: at(0) }, 'queued', at(59), true))
      .toEqual({ workingMs: 2000, workingSince: null });
  });

  it('reads the open stretch up to now', () => {
    expect(workingMsAt({ workingMs: 1500, workingSince: at(10) }, Date.parse(at(12)))).toBe(3500);
    expect(workingMsAt({ workingMs: 1500 }, Date.parse(at(12)))).toBe(1500);
  });
});
