// When a forge that limits the rate lets the desk ask again, from its answer's headers: `retry-after` (seconds or a
// date), GitHub's `x-ratelimit-reset` and GitLab's `ratelimit-reset` (seconds since the epoch). Pure.

/** How long to wait when a forge says it limits the rate but not until when. */
export const RATE_LIMIT_FALLBACK_MS = 60_000;

interface HeaderReader { get(name: string): string | null }

/**
 * The time (ms since the epoch) to ask again after a `429`, or a `403` that says it is a rate limit (a `retry-after`,
 * or no requests remaining); undefined for any other answer, a plain `403` included.
 */
export function rateLimitRetryAt(status: number, headers: HeaderReader, now: number): number | undefined {
  if (status !== 429 && status !== 403) return undefined;
  const retryAfter = headers.get('retry-after')?.trim();
  const remaining = headers.get('x-ratelimit-remaining') ?? headers.get('ratelimit-remaining');
  const reset = headers.get('x-ratelimit-reset') ?? headers.get('ratelimit-reset');
  if (status === 403 && !retryAfter && remaining?.trim() !== '0') return undefined;
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter)) return now + Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(now, date);
  }
  if (reset && /^\d+$/.test(reset.trim())) {
    const seconds = Number(reset);
    // Seconds since the epoch; a small number is a delay in seconds (some proxies send that).
    return seconds > 1_000_000_000 ? Math.max(now, seconds * 1000) : now + seconds * 1000;
  }
  return now + RATE_LIMIT_FALLBACK_MS;
}
