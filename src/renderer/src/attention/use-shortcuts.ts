// The board's keyboard shortcuts, wired to the page: one keydown listener that asks `shortcutFor` what a key
// means and does it. Cards are walked in the order they appear (columns left to right, top to bottom).
import { useEffect } from 'react';
import { isFinished } from '../state/selectors';
import { desk } from '../state/store';
import { refinePrompt } from '../task/diff/refine';
import { needsYou } from './attention';
import { shortcutFor, type ShortcutAction } from './shortcuts';

const CARD = 'article.card[data-task-id]';

function cards(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(CARD)];
}

/** The card the keyboard is on: the focused one, else the open task's. */
function currentCard(): HTMLElement | undefined {
  const focused = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(CARD);
  if (focused) return focused;
  const open = desk().openTaskId;
  return open === undefined ? undefined : cards().find((card) => card.dataset.taskId === open);
}

/** The task the keyboard acts on: the focused card's, else the open task. */
function currentTask(): string | undefined {
  return currentCard()?.dataset.taskId ?? desk().openTaskId;
}

function moveFocus(step: 1 | -1): boolean {
  const all = cards();
  if (all.length === 0) return false;
  const current = currentCard();
  const index = current ? all.indexOf(current) : -1;
  const next = index === -1 ? all[step === 1 ? 0 : all.length - 1] : all[Math.min(all.length - 1, Math.max(0, index + step))];
  next?.focus();
  next?.scrollIntoView({ block: 'nearest' });
  return true;
}

/** Focuses an element of the task view once it is shown (it loads lazily). */
function focusWhenShown(selector: string, framesLeft = 60): void {
  const element = document.querySelector<HTMLElement>(selector);
  if (element) element.focus();
  else if (framesLeft > 0) requestAnimationFrame(() => focusWhenShown(selector, framesLeft - 1));
}

function approve(): void {
  const id = currentTask();
  const task = id === undefined ? undefined : desk().tasks[id];
  if (!id || !task) return;
  if (needsYou(task) === 'review') void desk().approveTask(id);
  else desk().showStatus(`Task ${id} is not waiting for review.`);
}

function refine(): void {
  const id = currentTask();
  const task = id === undefined ? undefined : desk().tasks[id];
  if (!id || !task) return;
  const comments = desk().comments[id] ?? [];
  if (comments.length > 0 && isFinished(task.status)) {
    void desk().sendFollowUp(id, refinePrompt(comments)).then((sent) => { if (sent) desk().clearComments(id); });
    return;
  }
  // Nothing gathered to send: open the task at its follow-up box, to say what to change.
  desk().openTask(id);
  desk().setTaskTab('activity');
  focusWhenShown('textarea[aria-label="Follow-up prompt"]');
}

/** Does what a shortcut asks; false when it did nothing (so the key keeps its usual meaning). */
export function runShortcut(action: ShortcutAction, event: Pick<KeyboardEvent, 'target'>): boolean {
  switch (action) {
    case 'new-task':
      desk().openDialog({ kind: 'new-task' });
      return true;
    case 'search':
      focusWhenShown('input[aria-label="Search tasks"]', 0);
      return true;
    case 'next':
    case 'previous':
      return moveFocus(action === 'next' ? 1 : -1);
    case 'open': {
      // A focused card opens itself (its own handler); Enter elsewhere keeps its usual meaning.
      const card = (event.target as HTMLElement | null)?.closest?.<HTMLElement>(CARD);
      if (!card?.dataset.taskId || card !== event.target) return false;
      desk().openTask(card.dataset.taskId);
      return true;
    }
    case 'approve':
      approve();
      return true;
    case 'refine':
      refine();
      return true;
    case 'help':
      desk().openDialog({ kind: 'shortcuts' });
      return true;
  }
}

export function useShortcuts(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || desk().dialog) return;
      const action = shortcutFor(event);
      if (action && runShortcut(action, event)) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
