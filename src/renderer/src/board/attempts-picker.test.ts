import { describe, expect, it } from 'vitest';
import { attemptsOf } from './attempts-picker';

describe('the attempts New task submits', () => {
  it('repeats each agent as many times as its runs, in the order picked', () => {
    expect(attemptsOf({ claude: 2, codex: 0, scripted: 1 })).toEqual([{ agent: 'claude' }, { agent: 'claude' }, { agent: 'scripted' }]);
  });

  it('submits none when no runs were picked', () => {
    expect(attemptsOf({})).toBeUndefined();
    expect(attemptsOf({ claude: 0 })).toBeUndefined();
  });
});
