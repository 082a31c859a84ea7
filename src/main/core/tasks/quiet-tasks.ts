// Which running tasks' agents have gone quiet, and for how long a turn may be silent before that shows (a desk
// setting). Kept in memory: a restart re-runs the task, so nothing of it needs to outlive the desk.

/**
 * Default of the desk's `quietAfterSeconds`: long enough for a model's slow first token, short enough that a person
 * learns of an agent stuck retrying (its stall notice carries the agent's own log) while it still matters.
 */
export const DEFAULT_QUIET_AFTER_SECONDS = 20;

export interface QuietTasks {
  /** The time of the agent's last word, while it has been quiet past the limit. */
  since(taskId: string): string | undefined;
  set(taskId: string, since: string | undefined): void;
  /** Runs `listener` with the task id whenever a task goes quiet or speaks again. */
  onChange(listener: (taskId: string) => void): void;
  limitSeconds(): number;
  setLimitSeconds(seconds: number): void;
}

export function createQuietTasks(limitSeconds = DEFAULT_QUIET_AFTER_SECONDS): QuietTasks {
  const quiet = new Map<string, string>();
  const listeners: ((taskId: string) => void)[] = [];
  let limit = limitSeconds;
  return {
    since: (taskId) => quiet.get(taskId),
    set(taskId, since) {
      if (quiet.get(taskId) === since) return;
      if (since === undefined) quiet.delete(taskId);
      else quiet.set(taskId, since);
      for (const listener of listeners) listener(taskId);
    },
    onChange: (listener) => { listeners.push(listener); },
    limitSeconds: () => limit,
    setLimitSeconds: (seconds) => { limit = seconds; },
  };
}
