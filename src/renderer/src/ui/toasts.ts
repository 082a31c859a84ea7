// The page's toasts, as pure rules: at most three at a time (the oldest leaves first), the same message is not shown
// twice, and each leaves by itself after a few seconds unless it carries an action the person has to take.

export interface ToastAction { label: string; run(): void }
export interface Toast {
  id: number;
  kind: 'status' | 'alert';
  text: string;
  action?: ToastAction;
}

export const MAX_TOASTS = 3;
const STATUS_MS = 5000;
/** Errors stay a little longer: they are worth reading, not worth clearing by hand. */
const ALERT_MS = 8000;

/** The stack with `toast` on top: an equal message moves up instead of showing twice; past the limit, the oldest goes. */
export function pushToast(stack: readonly Toast[], toast: Toast, max = MAX_TOASTS): Toast[] {
  const others = stack.filter((shown) => !(shown.kind === toast.kind && shown.text === toast.text));
  return [...others, toast].slice(-max);
}

/** How long a toast stays, or undefined when it waits for the person (it carries an action). */
export function lifetimeOf(toast: Pick<Toast, 'kind' | 'action'>): number | undefined {
  if (toast.action) return undefined;
  return toast.kind === 'alert' ? ALERT_MS : STATUS_MS;
}
