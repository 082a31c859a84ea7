// A trial run's last answer standing in for it while a start answers its first requests. The answer is recalled only
// under the same fingerprint (what it depended on, read from files without starting a process) and only when it is
// one the desk may start with; the trial still runs, later, and its live answer is what tasks use (`live`).
import type { ProbeMemory } from './probe-memory';

export interface RememberedProbe<T> {
  /** The answer to start with: the remembered one when it still applies, else the live one. */
  readonly first: Promise<T>;
  /** Whether `first` is a remembered answer, which `live()` has yet to confirm. */
  readonly remembered: boolean;
  /** The live answer: the trial runs at the first call (unless `first` is it already), and memory keeps what it says. */
  live(): Promise<T>;
}

export interface RememberedProbeOptions<T> {
  /** The memory's name for this question. */
  name: string;
  /** What the answer depends on; undefined when nothing may be recalled (the answer cannot be vouched for). */
  fingerprint: string | undefined;
  /** The trial run. */
  probe(): Promise<T>;
  /** The answer a kept value stands for, when it is one the desk may start with; undefined otherwise. */
  recall(kept: unknown): T | undefined;
  /** What to keep of a live answer; undefined for answers that are always asked live (a refusal, a fallback). */
  keep(answer: T): unknown;
}

/** A probe answered from `memory` when it can be (no memory: always live). Never rejects unless the probe does. */
export function rememberedProbe<T>(memory: ProbeMemory | undefined, options: RememberedProbeOptions<T>): RememberedProbe<T> {
  const { name, fingerprint } = options;
  const kept = memory !== undefined && fingerprint !== undefined ? memory.recall(name, fingerprint) : undefined;
  const recalled = kept === undefined ? undefined : options.recall(kept);
  let live: Promise<T> | undefined;
  const runLive = (): Promise<T> => (live ??= options.probe().then((answer) => {
    if (memory !== undefined && fingerprint !== undefined) {
      const worth = options.keep(answer);
      if (worth === undefined) {
        if (kept !== undefined) memory.forget(name);
      } else if (JSON.stringify(worth) !== JSON.stringify(kept)) {
        memory.remember(name, fingerprint, worth);
      }
    }
    return answer;
  }));
  return recalled === undefined
    ? { first: runLive(), remembered: false, live: runLive }
    : { first: Promise.resolve(recalled), remembered: true, live: runLive };
}

/** A probe already answered (a test's fixed answer, or a probe started elsewhere): nothing remembered, nothing to check. */
export function answeredProbe<T>(answer: T | Promise<T>): RememberedProbe<T> {
  const first = Promise.resolve(answer);
  return { first, remembered: false, live: () => first };
}
