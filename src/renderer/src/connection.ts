// Where the core listens and its token, read from the URL fragment (never a query string, so it is not logged or sent).

export interface Connection { endpoint: string; token: string }

export function connectionFromFragment(location: Pick<Location, 'hash' | 'origin'>): Connection {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  return { endpoint: params.get('endpoint') ?? location.origin, token: params.get('token') ?? '' };
}
