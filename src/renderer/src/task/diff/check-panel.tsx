// The repository's check on the task's latest turn, in Review: passed, failed (its exit code) or could not run, how
// long it took, and the end of its output (the whole output is the `check` terminal in the task's stream).
import type { CheckResult } from '../../../../shared/task';
import { useDesk } from '../../state/store';

const HEADLINE: Record<CheckResult['status'], string> = { passed: 'Check passed', failed: 'Check failed', error: 'Check could not run' };

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function CheckPanel({ taskId }: { taskId: string }) {
  const check = useDesk((state) => state.tasks[taskId]?.check);
  if (!check) return null;
  return (
    <section className={`check-panel check-${check.status}`} aria-label="Check">
      <p className="check-line">
        <strong>{HEADLINE[check.status]}</strong>
        {check.status === 'failed' && check.exitCode !== undefined && ` (exit code ${check.exitCode})`}
        {` in ${seconds(check.durationMs)}`}
      </p>
      {check.outputTail.trim() !== '' && (
        <details open={check.status !== 'passed'}>
          <summary>Output (its end)</summary>
          <pre className="check-output" aria-label="Check output">{check.outputTail}</pre>
        </details>
      )}
    </section>
  );
}
