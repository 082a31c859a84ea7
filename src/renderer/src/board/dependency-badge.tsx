// One "waits for <id>" link on a card: red with "blocked" when that task errored or was cancelled.
import type { DependencyState } from '../state/selectors';
import { desk } from '../state/store';

const NOTE: Record<DependencyState, string | undefined> = { blocked: 'blocked', met: undefined, unknown: 'not submitted', waiting: undefined };

export function DependencyBadge({ taskId, dependency, state, removable }: {
  taskId: string; dependency: string; state: DependencyState; removable: boolean;
}) {
  const note = NOTE[state];
  return (
    <li className={`dep dep-${state}`}>
      <span>waits for {dependency}</span>
      {note && <span className="dep-note">{note}</span>}
      {state === 'met' && <><span aria-hidden="true">✓</span><span className="sr-only">(done)</span></>}
      {removable && (
        <button
          type="button"
          className="dep-remove"
          aria-label={`Remove dependency on ${dependency}`}
          title={`Remove dependency on ${dependency}`}
          onClick={(event) => {
            event.stopPropagation();
            void desk().unlinkTask(taskId, dependency);
          }}
        >
          ×
        </button>
      )}
    </li>
  );
}
