// This browser's attention preferences: browser notifications (once the person allowed them) and a sound, off
// until turned on. Kept in localStorage, so they outlast the tab; nothing here asks the browser for permission.
import { createStore, type StoreApi } from 'zustand/vanilla';

export interface AttentionPrefs {
  /** Show a browser notification when a task needs the person (needs the browser's permission too). */
  notify: boolean;
  /** Play a short sound when a task needs the person. */
  sound: boolean;
}

export interface AttentionPrefsState extends AttentionPrefs {
  set(prefs: Partial<AttentionPrefs>): void;
}

const KEY = 'assignment-desk.attention';
export const DEFAULT_PREFS: AttentionPrefs = { notify: false, sound: false };

/** Reads what was kept; anything unreadable counts as the defaults. */
export function readPrefs(storage: Pick<Storage, 'getItem'> | undefined): AttentionPrefs {
  try {
    const kept = JSON.parse(storage?.getItem(KEY) ?? 'null') as Partial<AttentionPrefs> | null;
    return { notify: kept?.notify === true, sound: kept?.sound === true };
  } catch {
    return DEFAULT_PREFS;
  }
}

export function createAttentionPrefs(storage: Pick<Storage, 'getItem' | 'setItem'> | undefined): StoreApi<AttentionPrefsState> {
  return createStore<AttentionPrefsState>()((setState, get) => ({
    ...readPrefs(storage),
    set(prefs) {
      setState(prefs);
      const { notify, sound } = get();
      try {
        storage?.setItem(KEY, JSON.stringify({ notify, sound }));
      } catch {
        // Storage full or blocked: the choice holds for this page.
      }
    },
  }));
}
