// Where a start keeps the answers of its trial runs (can bubblewrap confine here, can the desk write cgroups here) for
// the next start: one small JSON file per question, with the fingerprint of what the answer depended on. A cache,
// nothing more: an unreadable, foreign or half-written file reads as nothing remembered, and a write that fails is
// dropped, so the next start asks again.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ProbeMemory {
  /** The value remembered for `name` under exactly this fingerprint; undefined when none is. */
  recall(name: string, fingerprint: string): unknown;
  /** Keeps `value` for `name` under `fingerprint`, replacing what was there. */
  remember(name: string, fingerprint: string, value: unknown): void;
  /** Drops what is kept for `name`: the next start asks live. */
  forget(name: string): void;
}

/** Memory in `dir` (made on the first write), a file `<name>.json` per question. */
export function probeMemoryIn(dir: string): ProbeMemory {
  const fileOf = (name: string) => join(dir, `${name}.json`);
  return {
    recall(name, fingerprint) {
      try {
        const kept = JSON.parse(readFileSync(fileOf(name), 'utf8')) as { fingerprint?: unknown; value?: unknown };
        return kept.fingerprint === fingerprint ? kept.value : undefined;
      } catch {
        return undefined;
      }
    },
    remember(name, fingerprint, value) {
      // Written beside and renamed over: two desks starting at once leave one whole answer, never a mix.
      const temporary = `${fileOf(name)}.${process.pid}.tmp`;
      try {
        // The user's own, like the code cache beside it (docs/security.md).
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        writeFileSync(temporary, JSON.stringify({ fingerprint, value }), { mode: 0o600 });
        renameSync(temporary, fileOf(name));
      } catch {
        // A read-only or full cache folder: the next start probes again, as if nothing had been kept.
        try { rmSync(temporary, { force: true }); } catch { /* no folder to leave it in */ }
      }
    },
    forget(name) {
      rmSync(fileOf(name), { force: true });
    },
  };
}
