// A task's attempts side by side in Review: each one's agent, status, what it changed, its check, time and tokens, and, while
// the desk asks which to keep, "Keep attempt n" (the same answer as the question's option `attempt-<n>`); below, a file
// changed by several attempts viewed across them.
import { STATUS_LABELS } from '../../../../shared/task-status-labels';
import { desk, useDesk } from '../../state/store';
import { AttemptsCompare } from './attempts-compare';

const OPTION_PREFIX = 'attempt-';

function duration(ms: number): string {
  return ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}

export function AttemptsPanel({ taskId }: { taskId: string }) {
  const attempts = useDesk((state) => state.tasks[taskId]?.attemptsBrief);
  const question = useDesk((state) => state.tasks[taskId]?.openQuestions?.find((open) => open.options?.some((option) => option.optionId.startsWith(OPTION_PREFIX))));
  const full = useDesk((state) => state.details[taskId]?.attempts);
  if (!attempts) return null;
  const offered = new Set(question?.options?.map((option) => option.optionId) ?? []);
  return (
    <section className="attempts-panel" aria-label="Attempts">
      {question && <p className="attempts-question">{question.prompt}</p>}
      <ol className="attempts-grid">
        {attempts.map((attempt) => {
          const more = full?.find((candidate) => candidate.n === attempt.n);
          const optionId = `${OPTION_PREFIX}${attempt.n}`;
          return (
            <li key={attempt.n} className={`attempt-column${attempt.chosen ? ' attempt-kept' : ''}`} aria-label={`Attempt ${attempt.n}`}>
              <strong>Attempt {attempt.n}</strong> · {attempt.agent}
              <dl className="facts">
                <dt>Status</dt><dd>{attempt.chosen ? 'Kept' : STATUS_LABELS[attempt.status]}</dd>
                {attempt.additions !== undefined && <><dt>Changes</dt><dd>+{attempt.additions} −{attempt.deletions ?? 0}{more ? ` in ${more.filesChanged} ${more.filesChanged === 1 ? 'file' : 'files'}` : ''}</dd></>}
                {attempt.check && <><dt>Check</dt><dd>{attempt.check}</dd></>}
                {more && <><dt>Time</dt><dd>{duration(more.workingMs)}</dd></>}
                {more?.tokens !== undefined && <><dt>Tokens</dt><dd>{more.tokens.toLocaleString('en')}</dd></>}
                {more?.errorMessage && <><dt>Error</dt><dd>{more.errorMessage}</dd></>}
              </dl>
              {question && offered.has(optionId) && (
                <button type="button" onClick={() => void desk().answerQuestion(taskId, { questionId: question.id, optionId })}>
                  Keep attempt {attempt.n}
                </button>
              )}
            </li>
          );
        })}
      </ol>
      <AttemptsCompare taskId={taskId} attempts={attempts} />
    </section>
  );
}
