// A card's attempts in brief, one line each: number, agent, status, what it changed, its check, and which was kept.
import type { AttemptBrief } from '../../../shared/task';
import { STATUS_LABELS } from '../../../shared/task-status-labels';

export function CardAttempts({ attempts }: { attempts: readonly AttemptBrief[] }) {
  return (
    <ol className="card-attempts" aria-label="Attempts">
      {attempts.map((attempt) => (
        <li key={attempt.n} className={`card-attempt${attempt.chosen ? ' card-attempt-kept' : ''}`}>
          <span className="card-attempt-n">#{attempt.n}</span> {attempt.agent} · {STATUS_LABELS[attempt.status]}
          {attempt.additions !== undefined && ` · +${attempt.additions} −${attempt.deletions ?? 0}`}
          {attempt.check && ` · check ${attempt.check}`}
          {attempt.chosen && ' · kept'}
        </li>
      ))}
    </ol>
  );
}
