// "No word from the agent for 2m", with Cancel at hand: shown on a card and in the task view while the core says the
// agent has gone quiet (the summary's `quietSince`, so it is there after a reload too).
import { desk } from '../state/store';
import { useNow } from './use-now';

/** Whole minutes once past one, so the line does not tick every second. Pure. */
export function formatQuiet(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes}m` : `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

export function QuietNote({ taskId, since }: { taskId: string; since: string }) {
  const now = useNow();
  return (
    <p className="quiet-note" role="status">
      <span>No word from the agent for {formatQuiet(now - Date.parse(since))}</span>
      <button
        type="button"
        className="quiet small"
        aria-label={`Cancel task ${taskId}`}
        onClick={(event) => {
          event.stopPropagation();
          void desk().cancelTask(taskId);
        }}
      >
        Cancel
      </button>
    </p>
  );
}
