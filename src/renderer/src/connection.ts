// Where the core listens and its token: from the URL fragment (never a query string, so it is not logged
// or sent), else from this tab's sessionStorage, where the token form also keeps what the person typed.
import type { Connection } from './api/desk-api';

const TOKEN_KEY = 'assignment-desk.token';
const ENDPOINT_KEY = 'assignment-desk.endpoint';

type Place = Pick<Location, 'hash' | 'origin'>;
type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

export function fragmentParams(hash: string): URLSearchParams {
  return new URLSearchParams(hash.replace(/^#/, ''));
}

/** The connection to use, or undefined when no token is known yet (the token form asks for it). */
export function readConnection(place: Place, storage: KeyValueStore): Connection | undefined {
  const params = fragmentParams(place.hash);
  const token = params.get('token') ?? storage.getItem(TOKEN_KEY) ?? '';
  const fallback = /^https?:/.test(place.origin) ? place.origin : '';
  const endpoint = params.get('endpoint') ?? storage.getItem(ENDPOINT_KEY) ?? fallback;
  if (!token || !endpoint) return undefined;
  storage.setItem(TOKEN_KEY, token);
  storage.setItem(ENDPOINT_KEY, endpoint);
  return { endpoint, token };
}

export function rememberConnection(connection: Connection, storage: KeyValueStore): void {
  storage.setItem(TOKEN_KEY, connection.token);
  storage.setItem(ENDPOINT_KEY, connection.endpoint);
}

/** The fragment with one parameter set or removed, keeping the others (token, endpoint). */
export function withFragmentParam(hash: string, name: string, value: string | undefined): string {
  const params = fragmentParams(hash);
  if (value === undefined) params.delete(name);
  else params.set(name, value);
  const text = params.toString();
  return text ? `#${text}` : '';
}
