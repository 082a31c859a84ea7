// What the desk watches of a running turn besides its events: the agent going quiet, who the agent says it is, and
// a login it wants. The core hands each run a RunWatch; `watchQuiet` is the timer behind "no word from the agent".
import type { AgentImplementation, LoginHelp } from '../../../shared/agents';

export interface RunWatch {
  /** How long a turn may go without a word from the agent before the task shows it (the desk's setting, read each time). */
  quietAfterMs(): number;
  /** The agent has said nothing since `since` (ISO time) for longer than that; undefined once it speaks again or the turn ends. */
  setQuiet(since: string | undefined): void;
  /** Who the agent said it is in its initialize answer. */
  sawAgent(agent: AgentImplementation): void;
  /** The agent wants a login. */
  needsLogin(help: LoginHelp): void;
}

export interface QuietTimer {
  /** The agent said something (an update, a request, terminal output). */
  word(): void;
  /** A person holds the agent up (a question is open): silence then is not the agent's. */
  hold(held: boolean): void;
  stop(): void;
}

/** The longest gap between two "still quiet" calls: a turn stuck for an hour gets a line every few minutes, not a flood. */
const LONGEST_REPEAT_MS = 5 * 60_000;

/**
 * Calls `onQuiet(lastWordAt)` once the agent has been silent for `limitMs()`, and `onQuiet(undefined)` when it speaks
 * again (or the watch stops while quiet). While the silence lasts, `onStill(lastWordAt)` follows after twice the limit,
 * then after gaps that double (at most five minutes). One timer, checking a few times per limit, so a limit changed
 * while it runs takes effect.
 */
export function watchQuiet(options: { limitMs(): number; now(): number; onQuiet(since: number | undefined): void; onStill?(since: number): void }): QuietTimer {
  let lastWord = options.now();
  let quiet = false;
  let held = 0;
  let repeatGap = 0;
  let nextRepeat = 0;
  const check = () => {
    if (held > 0) return;
    const now = options.now();
    if (quiet) {
      if (now < nextRepeat) return;
      repeatGap = Math.min(repeatGap * 2, LONGEST_REPEAT_MS);
      nextRepeat = now + repeatGap;
      options.onStill?.(lastWord);
      return;
    }
    if (now - lastWord >= options.limitMs()) {
      quiet = true;
      repeatGap = options.limitMs();
      nextRepeat = now + repeatGap;
      options.onQuiet(lastWord);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    timer = setTimeout(() => { check(); arm(); }, Math.min(5000, Math.max(50, options.limitMs() / 4)));
    timer.unref();
  };
  arm();
  const speak = () => {
    lastWord = options.now();
    if (quiet) {
      quiet = false;
      options.onQuiet(undefined);
    }
  };
  return {
    word: speak,
    hold(value) {
      held = Math.max(0, held + (value ? 1 : -1));
      speak();
    },
    stop() {
      clearTimeout(timer);
      if (quiet) {
        quiet = false;
        options.onQuiet(undefined);
      }
    },
  };
}
