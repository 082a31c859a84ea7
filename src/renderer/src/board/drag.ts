// HTML5 drag and drop of cards: the dragged task's id travels as 'text/x-desk-task'.
import type { DragEvent } from 'react';

export const TASK_DRAG_TYPE = 'text/x-desk-task';

export function startTaskDrag(event: DragEvent, taskId: string): void {
  event.dataTransfer.setData(TASK_DRAG_TYPE, taskId);
  event.dataTransfer.setData('text/plain', taskId);
  event.dataTransfer.effectAllowed = 'linkMove';
}

/** Whether a drag carries a task (its id can be read only on drop). */
export function carriesTask(event: DragEvent): boolean {
  return event.dataTransfer.types.includes(TASK_DRAG_TYPE);
}

export function draggedTask(event: DragEvent): string | undefined {
  return event.dataTransfer.getData(TASK_DRAG_TYPE) || undefined;
}
