// "Several attempts" in New task: how many runs of each agent to start side by side, an agent to judge them if wanted,
// and how the one kept is chosen.
// Left at zero everywhere, the task is one run of the agent chosen above.
import { useId } from 'react';
import { MAX_ATTEMPTS, type AttemptEntry, type ChooseAttempt } from '../../../shared/task';

/** `judge`: the agent that recommends an attempt once all have ended ('' for none). */
export interface AttemptsChoice { runs: Record<string, number>; choose: ChooseAttempt | ''; judge?: string }

/** The submission's `attempts` for the runs picked (agent by agent), or undefined for none. */
export function attemptsOf(runs: Record<string, number>): AttemptEntry[] | undefined {
  const entries = Object.entries(runs).flatMap(([agent, count]) => Array.from({ length: count }, () => ({ agent })));
  return entries.length === 0 ? undefined : entries;
}

export function AttemptsPicker({ agents, value, onChange }: {
  agents: readonly { id: string; name: string; available: boolean }[];
  value: AttemptsChoice;
  onChange(value: AttemptsChoice): void;
}) {
  const chooseId = useId();
  const judgeId = useId();
  const baseId = useId();
  const judge = value.judge ?? '';
  const total = Object.values(value.runs).reduce((sum, count) => sum + count, 0);
  return (
    <details className="attempts-picker">
      <summary>Several attempts{total > 0 ? ` (${total})` : ''}</summary>
      <fieldset>
        <legend>Runs of each agent, side by side (2 to {MAX_ATTEMPTS} in all); you keep one</legend>
        {agents.filter((agent) => agent.available).map((agent) => (
          <div key={agent.id} className="form-field form-inline">
            <label htmlFor={`${baseId}-${agent.id}`}>Runs of {agent.name}</label>
            <input
              id={`${baseId}-${agent.id}`}
              type="number"
              min={0}
              max={MAX_ATTEMPTS}
              value={value.runs[agent.id] ?? 0}
              onChange={(event) => onChange({ ...value, runs: { ...value.runs, [agent.id]: Math.max(0, Math.min(MAX_ATTEMPTS, Number(event.target.value) || 0)) } })}
            />
          </div>
        ))}
        <label htmlFor={judgeId}>Judge</label>
        <select
          id={judgeId}
          value={judge}
          // Without a judge there is no judge's pick to keep.
          onChange={(event) => onChange({ ...value, judge: event.target.value, ...(event.target.value === '' && value.choose === 'judge' && { choose: '' }) })}
        >
          <option value="">None</option>
          {agents.filter((agent) => agent.available).map((agent) => <option key={agent.id} value={agent.id}>{agent.name} recommends one</option>)}
        </select>
        <label htmlFor={chooseId}>Keep</label>
        <select id={chooseId} value={value.choose} onChange={(event) => onChange({ ...value, choose: event.target.value as AttemptsChoice['choose'] })}>
          <option value="">The one I choose once all have ended</option>
          <option value="first">The first to complete</option>
          <option value="check">The first to complete and pass the check</option>
          {judge !== '' && <option value="judge">The one the judge recommends</option>}
        </select>
      </fieldset>
    </details>
  );
}
