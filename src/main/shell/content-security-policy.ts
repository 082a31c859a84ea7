// The Content-Security-Policy header main adds to the app's pages. It narrows the board's own <meta> policy
// (a page obeys both): scripts only from the desk, connections only to this desk's port, no plugins,
// no <base> tricks, no forms posting elsewhere, no framing. Pure.

export function boardContentSecurityPolicy(appOrigin: string): string {
  const socket = appOrigin.replace(/^http:/, 'ws:');
  return [
    "default-src 'self'",
    "script-src 'self'",
    // React and the board's libraries set inline styles; scripts stay strict.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' ${socket}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Response headers with our policy added. A policy the server sent stays: a browser enforces every policy it
 * gets, so adding can only narrow what the page may do, never widen it.
 */
export function withContentSecurityPolicy(headers: Record<string, string | string[]> | undefined, policy: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  const sent: string[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === 'content-security-policy') sent.push(...(Array.isArray(value) ? value : [value]));
    else result[name] = value;
  }
  result['Content-Security-Policy'] = [...sent, policy];
  return result;
}
