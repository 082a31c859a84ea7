// Every prompt a person gives a task (its first turn, each follow-up) is also recorded as an event, so the
// conversation shows what was asked, in order with what the agent did, after a reload too. The first turn's is
// recorded when its run starts, when the turn is stored (first-turn.ts).
import type { TaskEvent } from '../../../shared/events';
import type { TurnsRepo } from '../store/turns-repo';

/** The turns repo, recording a `prompt` event for every turn it stores. */
export function recordingPrompts(turns: TurnsRepo, record: (taskId: string, event: TaskEvent) => void): TurnsRepo {
  return {
    ...turns,
    startOver(taskId, prompt, agent, at) {
      const turn = turns.startOver(taskId, prompt, agent, at);
      record(taskId, { type: 'prompt', turn: turn.turn, text: prompt });
      return turn;
    },
    add(taskId, prompt, agent, at) {
      const turn = turns.add(taskId, prompt, agent, at);
      record(taskId, { type: 'prompt', turn: turn.turn, text: prompt });
      return turn;
    },
  };
}
