// The app's own origin: the core's HTTP server on loopback, which also serves the board at /ui/. Pure.
// Same origin for the page and the API means no CORS exception and no `null` Origin from a file:// page.

export const APP_HOST = '127.0.0.1';
/** The port people configure in Prompt Pad; the desk falls back to a free one when it is taken. */
export const DEFAULT_PORT = 1337;

/** `http://127.0.0.1:<port>`, exactly as a browser serializes the origin. */
export function appOriginFor(port: number): string {
  return `http://${APP_HOST}:${port}`;
}

/** The board's address; the token rides in the fragment, which is never sent to a server or logged. */
export function boardUrl(origin: string, token: string): string {
  return `${origin}/ui/#token=${encodeURIComponent(token)}`;
}

/**
 * Whether `url` belongs to `origin`: scheme, host and port compared after parsing, so lookalikes
 * (`http://127.0.0.1:1337.evil.test`, `http://127.0.0.1:1337@evil.test`, another port) never pass.
 */
export function isSameOrigin(url: string | undefined, origin: string): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    if (parsed.username !== '' || parsed.password !== '') return false;
    return parsed.origin === new URL(origin).origin;
  } catch {
    return false;
  }
}
