// A task's attempts side by side in Review: each one's agent, status, what it changed, its check, time and tokens, and, while
// the desk asks which to keep, "Keep attempt n" (the same answer as the question's option `attempt-<n>`); below, a file
// changed by several attempts viewed across them. A judge's recommendation (or why it made none) shows above them, marked
// as the judge's, and on the column of the attempt it recommends.
import { ACTIVE_STATUSES, type AttemptRecommendation, type TaskDetail, type TaskStatus } from '../../../../shared/task';
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
  const detail = useDesk((state) => state.details[taskId]);
  const status = useDesk((state) => state.tasks[taskId]?.status);
  if (!attempts) return null;
  const judging = judgingOf(detail, status);
  const offered = new Set(question?.options?.map((option) => option.optionId) ?? []);
  const recommended = judging?.recommendation?.n;
  return (
    <section className="attempts-panel" aria-label="Attempts">
      {judging && <p className="attempts-judge" role="note" aria-label="The judge's recommendation">{judging.text}</p>}
      {question && <p className="attempts-question">{question.prompt}</p>}
      <ol className="attempts-grid">
        {attempts.map((attempt) => {
          const more = full?.find((candidate) => candidate.n === attempt.n);
          const optionId = `${OPTION_PREFIX}${attempt.n}`;
          return (
            <li key={attempt.n} className={`attempt-column${attempt.chosen ? ' attempt-kept' : ''}`} aria-label={`Attempt ${attempt.n}`}>
              <strong>Attempt {attempt.n}</strong> · {attempt.agent}
              {attempt.n === recommended && <span className="attempt-judged" title={judging?.recommendation?.reason}> · Judge&apos;s pick</span>}
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

/** What the panel says of the judge: its recommendation, why it made none, or that it is at work; undefined without one. */
function judgingOf(detail: TaskDetail | undefined, status: TaskStatus | undefined): { text: string; recommendation?: AttemptRecommendation } | undefined {
  if (!detail?.judge) return undefined;
  const { judge, recommendation, judgeNote } = detail;
  if (recommendation) return { text: `Judge (${recommendation.by}) recommends attempt ${recommendation.n}: ${recommendation.reason}`, recommendation };
  if (judgeNote !== undefined) return { text: `Judge: ${judgeNote} The choice is yours.` };
  const ended = detail.attempts?.every((attempt) => !ACTIVE_STATUSES.includes(attempt.status)) ?? false;
  return ended && status === 'in-progress' ? { text: `Judge (${judge}) is comparing the attempts…` } : { text: `Judge: ${judge}, once every attempt has ended.` };
}
