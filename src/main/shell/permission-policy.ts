// Web permissions the board may get: none, except writing to the clipboard from the app's own page
// (its copy buttons). Camera, microphone, notifications, geolocation, HID, serial… are all refused. Pure.
import { isSameOrigin } from './app-origin';

const GRANTED_TO_APP = new Set(['clipboard-sanitized-write']);

/** For both Electron's permission request and permission check handlers. */
export function permissionDecision(permission: string, requestingUrl: string | undefined, appOrigin: string): boolean {
  return GRANTED_TO_APP.has(permission) && isSameOrigin(requestingUrl, appOrigin);
}
