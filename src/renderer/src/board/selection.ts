// Picking cards for a bulk action: a click toggles one card, a shift-click picks every card between the last one
// picked and this one in the same column (as the filters show it).
import { isFinished, columnOf, columnTaskIds } from '../state/selectors';
import { desk } from '../state/store';

/** Only finished tasks have anything to approve, reject or archive. */
export function isSelectable(task: { status: Parameters<typeof isFinished>[0] }): boolean {
  return isFinished(task.status);
}

export function pickCard(id: string, range: boolean): void {
  const state = desk();
  const task = state.tasks[id];
  const anchor = state.selectionAnchor;
  const anchorTask = anchor === undefined ? undefined : state.tasks[anchor];
  if (range && task && anchorTask && anchor !== id && columnOf(anchorTask) === columnOf(task)) {
    const ids = columnTaskIds(state, columnOf(task), state.filters, state.prompts);
    const from = ids.indexOf(anchor as string);
    const to = ids.indexOf(id);
    if (from >= 0 && to >= 0) {
      const between = ids.slice(Math.min(from, to), Math.max(from, to) + 1);
      state.selectRange(between.filter((each) => state.tasks[each] !== undefined && isSelectable(state.tasks[each])));
      return;
    }
  }
  state.toggleSelected(id);
}
