// OS notifications when a task needs input or is ready for review; a click brings the board forward on
// that task (through window.desk.onFocusTask).
import { Notification } from 'electron';
import type { EventEnvelope } from '../../shared/events';
import { DESK_CHANNELS } from '../../shared/desk-bridge';
import { notificationFor, type SeenStatuses } from '../../shared/notifications-policy';

export interface DeskNotifierOptions {
  /** Whether the person is looking at the board right now (then the board itself tells them). */
  windowFocused: () => boolean;
  focusTask: (taskId: string) => void;
}

/** Returns the listener to hand the desk's event stream; call `reset` when the repository changes. */
export function createDeskNotifier(options: DeskNotifierOptions): { listener: (event: EventEnvelope) => void; reset(): void } {
  let seen: SeenStatuses = new Map();
  // Kept referenced until clicked or closed: a collected Notification loses its click handler.
  const shown = new Set<Notification>();
  return {
    listener(event) {
      const step = notificationFor(seen, event, options.windowFocused());
      seen = step.seen;
      if (!step.notification || !Notification.isSupported()) return;
      const { taskId, title, body } = step.notification;
      const notification = new Notification({ title, body });
      shown.add(notification);
      notification.on('click', () => {
        shown.delete(notification);
        options.focusTask(taskId);
      });
      notification.on('close', () => shown.delete(notification));
      notification.show();
    },
    reset() {
      seen = new Map();
    },
  };
}

/** Tells the board which task to show. */
export function sendFocusTask(send: (channel: string, taskId: string) => void, taskId: string): void {
  send(DESK_CHANNELS.focusTask, taskId);
}
