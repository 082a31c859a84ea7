// Where the board window may go: nowhere but the app's own origin. Links to the web open in the person's
// browser, and only right after they clicked or pressed a key, so a compromised page cannot spray tabs. Pure.
import { isSameOrigin } from './app-origin';

/** Navigation inside the window (`will-navigate`, `will-redirect`, frames): the app's origin or nothing. */
export function navigationDecision(url: string, appOrigin: string): 'allow' | 'deny' {
  return isSameOrigin(url, appOrigin) ? 'allow' : 'deny';
}

/** What to do with a link or navigation that would leave the app: never in Electron; in the browser when clicked. */
export function leavingDecision(url: string, appOrigin: string, userActivated: boolean): { openExternally: boolean } {
  return { openExternally: userActivated && !isSameOrigin(url, appOrigin) && isExternalWebUrl(url) };
}

/** http(s) only, without credentials: no file:, javascript:, custom schemes or `user:pass@` disguises. */
export function isExternalWebUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname !== ''
      && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}

/** Input that counts as a person acting, as in a browser's transient user activation. */
const ACTIVATING_INPUT = new Set(['mouseDown', 'mouseUp', 'rawKeyDown', 'keyDown', 'touchEnd', 'gestureTap', 'pointerUp']);

export interface UserActivation {
  /** Called with the type of every input event the window receives from the OS. */
  noteInput(type: string): void;
  /** True at most once per gesture, and only shortly after it (like `window.open` consuming activation). */
  consume(): boolean;
}

export function createUserActivation(now: () => number = Date.now, windowMs = 1_000): UserActivation {
  let lastInputAt = Number.NEGATIVE_INFINITY;
  return {
    noteInput(type) {
      if (ACTIVATING_INPUT.has(type)) lastInputAt = now();
    },
    consume() {
      if (now() - lastInputAt > windowMs) return false;
      lastInputAt = Number.NEGATIVE_INFINITY;
      return true;
    },
  };
}
