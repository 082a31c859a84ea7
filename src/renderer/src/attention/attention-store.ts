// The page's attention preferences instance and the hook components read it with.
import { useStore } from 'zustand';
import { createAttentionPrefs, type AttentionPrefsState } from './attention-prefs';

export const attentionPrefs = createAttentionPrefs(typeof localStorage === 'undefined' ? undefined : localStorage);

export function useAttentionPrefs<T>(selector: (state: AttentionPrefsState) => T): T {
  return useStore(attentionPrefs, selector);
}
