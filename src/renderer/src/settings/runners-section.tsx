// "Runners" in Settings: where agents may run (this machine, Docker, a cluster), whether each can be used now,
// and how many tasks each runs of how many it may. Read when Settings opens.
import { useEffect, useState } from 'react';
import type { RunnerState } from '../../../shared/runners';
import { useDesk } from '../state/store';

const NAMES: Record<RunnerState['kind'], string> = { local: 'This machine', docker: 'Docker', cluster: 'Cluster' };

export function RunnersSection() {
  const api = useDesk((state) => state.api);
  const [runners, setRunners] = useState<RunnerState[] | undefined>();
  useEffect(() => {
    let live = true;
    api?.runners().then((view) => { if (live) setRunners(view.runners); }, () => { if (live) setRunners(undefined); });
    return () => { live = false; };
  }, [api]);
  if (!runners) return null;
  return (
    <fieldset className="settings-group">
      <legend>Runners</legend>
      <p className="hint">Where agents run. A task names one with <code>"runner"</code>; set them up in <code>runners.json</code> (see docs/runners.md).</p>
      <ul aria-label="Runners" className="runner-list">
        {runners.map((runner) => (
          <li key={runner.kind} aria-label={`Runner ${runner.kind}`}>
            <strong>{NAMES[runner.kind]}</strong> <code>{runner.kind}</code>{runner.isDefault && ' (default)'}:{' '}
            {runner.available ? `${runner.running} of ${runner.capacity} running` : 'unavailable'}
            <div className={runner.available ? 'hint' : 'task-warning'}>{runner.detail}</div>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
