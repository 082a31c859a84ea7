// The board's keyboard shortcuts as a pure decision: which action a key press asks for, or none. Keys typed
// into a field (input, textarea, select, anything editable) are the person's text, never a shortcut.

export type ShortcutAction = 'new-task' | 'search' | 'next' | 'previous' | 'open' | 'approve' | 'refine' | 'help';

/** What the shortcuts dialog lists, in order. */
export const SHORTCUTS: readonly { keys: string[]; action: string }[] = [
  { keys: ['n'], action: 'New task' },
  { keys: ['/'], action: 'Search tasks' },
  { keys: ['j', '↓'], action: 'Next card' },
  { keys: ['k', '↑'], action: 'Previous card' },
  { keys: ['Enter'], action: 'Open the card' },
  { keys: ['a'], action: 'Approve the task (ready for review)' },
  { keys: ['r'], action: 'Refine: send review comments, or write a follow-up' },
  { keys: ['Ctrl', 'Enter'], action: 'Send (answer, follow-up, new task)' },
  { keys: ['Esc'], action: 'Close the task or dialog' },
  { keys: ['?'], action: 'Show these shortcuts' },
];

const KEYS: Readonly<Record<string, ShortcutAction>> = {
  n: 'new-task', '/': 'search', j: 'next', ArrowDown: 'next', k: 'previous', ArrowUp: 'previous',
  Enter: 'open', a: 'approve', r: 'refine', '?': 'help',
};

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

/** Whether the element takes typed text (or picks from a list), so its keys are not shortcuts. */
export function isTyping(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  return element.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"]') !== null;
}

/** The action a key press asks for; none while typing, with Ctrl/Cmd/Alt held, or inside a dialog. */
export function shortcutFor(press: KeyPress): ShortcutAction | undefined {
  if (press.ctrlKey || press.metaKey || press.altKey) return undefined;
  if (isTyping(press.target)) return undefined;
  const inDialog = typeof (press.target as Element | null)?.closest === 'function' && (press.target as Element).closest('[role="dialog"]') !== null;
  if (inDialog) return undefined;
  // Arrows scroll whatever has focus (the activity log, a diff); they move between cards only from a card or the page.
  if (press.key.startsWith('Arrow') && !onCardOrPage(press.target)) return undefined;
  return KEYS[press.key];
}

function onCardOrPage(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element || typeof element.closest !== 'function') return true;
  return element === element.ownerDocument.body || element.closest('article.card') === element;
}
