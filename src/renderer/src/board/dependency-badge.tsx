// One "waits for <id>" link on a card: red with "blocked" when that task errored or was cancelled. The × stays
// beside the id (a long id is cut short instead); a note goes on a line of its own under both.
import type { DependencyState } from '../state/selectors';
import { desk } from '../state/store';

const NOTE: Record<DependencyState, string | undefined> = { blocked: 'blocked', met: undefined, unknown: 'not submitted', waiting: undefined };

export function DependencyBadge({ taskId, dependency, state, removable }: {
  taskId: string; dependency: string; state: DependencyState; removable: boolean;
}) {
  const note = NOTE[state];
  return (
    <li className={`dep dep-${state}`}>
      <span className="dep-row">
        <span className="dep-label" title={`waits for ${dependency}`}>
          waits for {dependency}
          {state === 'met' && <><span aria-hidden="true"> ✓</span><span className="sr-only">(done)</span></>}
        </span>
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
      </span>
      {note && <span className="dep-note">{note}</span>}
    </li>
  );
}
