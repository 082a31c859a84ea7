// Tells the person when a task needs them: the tab title counts such tasks, and a task that starts waiting for
// an answer or becomes ready for review raises a browser notification (while the page is not being looked at)
// and, if turned on, a sound. In the desktop app the OS notifications come from the main process instead.
import { useEffect } from 'react';
import { deskBridge } from '../../../shared/desk-bridge';
import { notificationForTask, type DeskNotification, type SeenStatuses } from '../../../shared/notifications-policy';
import type { TaskSummary } from '../../../shared/task';
import { desk, deskStore } from '../state/store';
import { countNeedingYou, titleText } from './attention';
import { attentionPrefs } from './attention-store';
import { playChime } from './chime';

/** Whether the person is looking at this page right now. */
function looking(): boolean {
  return document.visibilityState === 'visible' && document.hasFocus();
}

/** Whether this page may show browser notifications itself (not in the desktop app, which has OS ones). */
export function browserNotificationsAvailable(): boolean {
  return deskBridge().runtime !== 'electron' && typeof Notification !== 'undefined';
}

function showNotification({ taskId, title, body }: DeskNotification): void {
  if (!attentionPrefs.getState().notify || !browserNotificationsAvailable() || Notification.permission !== 'granted') return;
  const notification = new Notification(title, { body, tag: `task-${taskId}` });
  notification.onclick = () => {
    window.focus();
    desk().openTask(taskId);
    notification.close();
  };
}

export function useAttention(): void {
  useEffect(() => {
    // Statuses as last seen: a moment worth telling is a change into one. Set from the first full load, so
    // what already waited when the page opened is counted in the title but not announced again.
    let seen: SeenStatuses | undefined;
    const follow = (tasks: Readonly<Record<string, TaskSummary>>, previous: Readonly<Record<string, TaskSummary>> | undefined) => {
      document.title = titleText(countNeedingYou(tasks));
      if (desk().loadState !== 'ready') return;
      if (!seen || !previous) {
        seen = new Map(Object.values(tasks).map((task) => [task.id, task.status]));
        return;
      }
      for (const id in tasks) {
        const task = tasks[id] as TaskSummary;
        if (task === previous[id]) continue;
        const step = notificationForTask(seen, task, false);
        seen = step.seen;
        if (!step.notification) continue;
        if (attentionPrefs.getState().sound) playChime();
        if (!looking()) showNotification(step.notification);
      }
    };
    follow(desk().tasks, undefined);
    return deskStore.subscribe((state, before) => {
      if (state.tasks !== before.tasks || state.loadState !== before.loadState) follow(state.tasks, seen && before.tasks);
    });
  }, []);
}
