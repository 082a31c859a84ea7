import { describe, expect, it } from 'vitest';
import { heldBack, type StartLimitFacts } from './start-limits';

const facts = (over: Partial<StartLimitFacts> = {}): StartLimitFacts => ({
  running: [], picked: [], limits: {}, promptsLastHour: () => 0, runnerHeld: () => undefined, ...over,
});

describe('heldBack', () => {
  it('lets a task start when nothing holds it', () => {
    expect(heldBack({ agent: 'a', runner: 'local' }, facts())).toBeUndefined();
  });

  it('holds a task while its agent runs as many tasks as the policy allows, counting those picked in the same round', () => {
    const limits = { concurrentTasks: 2 };
    expect(heldBack({ agent: 'a', runner: 'local' }, facts({ limits, running: [{ agent: 'a', runner: 'docker' }], picked: [{ agent: 'a', runner: 'local' }] })))
      .toBe('Waiting: agent a may run 2 tasks at once.');
    expect(heldBack({ agent: 'a', runner: 'local' }, facts({ limits, running: [{ agent: 'b', runner: 'local' }], picked: [{ agent: 'a', runner: 'local' }] }))).toBeUndefined();
  });

  it('counts prompts already started this hour and those picked now against the hourly limit', () => {
    const limits = { promptsPerHour: 3 };
    expect(heldBack({ agent: 'a', runner: 'local' }, facts({ limits, promptsLastHour: () => 2 }))).toBeUndefined();
    expect(heldBack({ agent: 'a', runner: 'local' }, facts({ limits, promptsLastHour: () => 2, picked: [{ agent: 'a', runner: 'local' }] })))
      .toBe('Waiting: agent a reached its limit of 3 prompts per hour.');
  });

  it("asks the task's runner with the number of tasks running or starting there", () => {
    const asked: [string, number][] = [];
    const reason = heldBack({ agent: 'a', runner: 'docker' }, facts({
      running: [{ agent: 'x', runner: 'docker' }, { agent: 'y', runner: 'local' }],
      picked: [{ agent: 'z', runner: 'docker' }],
      runnerHeld: (runner, there) => { asked.push([runner, there]); return there >= 2 ? 'full' : undefined; },
    }));
    expect(asked).toEqual([['docker', 2]]);
    expect(reason).toBe('full');
  });
});
