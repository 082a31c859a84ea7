// "Clear done" in the Done column: asks the core how many finished tasks it would archive, confirms with that number.
import { messageOf } from '../api/api-error';
import { desk, useDesk } from '../state/store';

export function ClearDone() {
  const archivedView = useDesk((state) => state.filters.archived === true);
  if (archivedView) return null;
  const ask = async () => {
    try {
      const count = await desk().countSettled();
      if (count === 0) desk().showStatus('Nothing to clear: no approved, rejected, failed or cancelled task is on the board.');
      else desk().openDialog({ kind: 'confirm-clear-done', count });
    } catch (error) {
      desk().showAlert(messageOf(error));
    }
  };
  return (
    <button type="button" className="quiet small" title="Archive every approved, rejected, failed or cancelled task" onClick={() => void ask()}>
      Clear done
    </button>
  );
}
