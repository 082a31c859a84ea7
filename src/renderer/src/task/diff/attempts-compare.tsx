// A file changed by several attempts, viewed across them: pick the file, and each attempt's diff of it shows side by
// side. Each attempt's diff is read from its own task (`<id>~attempt-<n>`), once, when this opens.
import { useEffect, useId, useMemo, useState } from 'react';
import { attemptTaskId, type AttemptBrief } from '../../../../shared/task';
import { desk, useDesk } from '../../state/store';
import { DiffView } from './diff-view';

export function AttemptsCompare({ taskId, attempts }: { taskId: string; attempts: readonly AttemptBrief[] }) {
  const changed = attempts.filter((attempt) => attempt.additions !== undefined);
  const ids = changed.map((attempt) => attemptTaskId(taskId, attempt.n));
  const key = ids.join('\n');
  useEffect(() => { for (const id of key.split('\n')) if (id) void desk().loadDiff(id); }, [key]);
  const diffs = useDesk((state) => state.diffs);
  const [path, setPath] = useState('');
  const selectId = useId();
  // Files at least two attempts changed, in path order.
  const shared = useMemo(() => {
    const counts = new Map<string, number>();
    for (const id of ids) for (const file of diffs[id]?.data?.files ?? []) counts.set(file.path, (counts.get(file.path) ?? 0) + 1);
    return [...counts].filter(([, count]) => count > 1).map(([file]) => file).sort();
  }, [diffs, key]); // `key` stands for `ids`, which is a new array at each render
  if (shared.length === 0) return null;
  return (
    <div className="attempts-compare">
      <label htmlFor={selectId}>Compare a file across attempts</label>
      <select id={selectId} value={path} onChange={(event) => setPath(event.target.value)}>
        <option value="">Choose a file…</option>
        {shared.map((file) => <option key={file} value={file}>{file}</option>)}
      </select>
      {path && (
        <div className="attempts-compare-grid">
          {changed.map((attempt) => {
            const id = attemptTaskId(taskId, attempt.n);
            const file = diffs[id]?.data?.files.find((candidate) => candidate.path === path);
            return (
              <section key={attempt.n} className="attempts-compare-column" aria-label={`Attempt ${attempt.n}: ${path}`}>
                <h4>Attempt {attempt.n} · {attempt.agent}</h4>
                {file ? <DiffView taskId={id} file={file} layout="unified" /> : <p className="diff-note">Attempt {attempt.n} did not change {path}.</p>}
              </section>
            );
          })}
        </div>
      )}
    </div>
  );
}
