// What the desk asks of a forge about one repository's pull/merge requests, the same for GitHub and GitLab, and the
// one way their HTTP answers become values or a ForgeError in the forge's own words.
import type { PullRequestChecks, PullRequestState } from '../../../shared/pull-request';
import type { FailedCheck, FeedbackComment } from '../../../shared/pull-request-feedback';
import { rateLimitRetryAt } from './rate-limit';

export interface ForgePullRequest {
  number: number;
  url: string;
  state: PullRequestState;
  draft: boolean;
  head: string;
  base: string;
  checks?: PullRequestChecks;
  /** The commit at the request's head. */
  headCommit?: string;
  /** The checks that failed on the head commit (read with `get`). */
  failedChecks?: FailedCheck[];
}

/** A comment as the forge has it, before the desk keeps it (no `addressedIn`). */
export type ForgeComment = Omit<FeedbackComment, 'addressedIn'>;

export interface OpenRequest { head: string; base: string; title: string; body: string; draft: boolean }

export interface ForgeApi {
  open(request: OpenRequest): Promise<ForgePullRequest>;
  /** The newest request from `head`, in any state, or undefined. */
  findByHead(head: string): Promise<ForgePullRequest | undefined>;
  /** One request with its current state and checks (and the failed ones by name). */
  get(number: number): Promise<ForgePullRequest>;
  /** The request's review comments (with their file, line and thread) and general comments, oldest first. */
  comments(request: { number: number; url: string }): Promise<ForgeComment[]>;
  /** Replies in the comment's thread (a general comment gets a new comment quoting it). */
  reply(number: number, comment: ForgeComment, body: string): Promise<void>;
  /** Who the token is (a login or username), to leave the desk's own comments out; undefined when the forge won't say. */
  whoAmI(): Promise<string | undefined>;
}

/** A forge's refusal (`status` is its HTTP status) or no answer at all (`status` 0). The message never holds a token. */
export class ForgeError extends Error {
  constructor(readonly status: number, message: string, /** Set when the forge limits the rate: when to ask again (ms since the epoch). */ readonly retryAt?: number) {
    super(message);
    this.name = 'ForgeError';
  }
}

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<Response>;

export interface ForgeHttpOptions {
  fetch: FetchLike;
  /** The API's base address, without a trailing slash. */
  apiBase: string;
  headers: Record<string, string>;
  /** The forge's name for messages: "GitHub", "GitLab". */
  forgeName: string;
  timeoutMs?: number;
}

/** How long one forge request may take. */
const REQUEST_TIMEOUT_MS = 30_000;

/** Sends one JSON request and returns the parsed answer; a refusal becomes a ForgeError quoting the forge's message. */
export async function forgeRequest<T>(options: ForgeHttpOptions, method: string, path: string, body?: unknown): Promise<T> {
  const url = `${options.apiBase}${path}`;
  let response: Response;
  try {
    response = await options.fetch(url, {
      method,
      headers: { accept: 'application/json', ...options.headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new ForgeError(0, `Could not reach ${options.forgeName} at ${options.apiBase} (${cause}). Check the network, or the API address (GITHUB_API_URL / GITLAB_API_URL).`);
  }
  const text = await response.text();
  if (!response.ok) {
    const retryAt = rateLimitRetryAt(response.status, response.headers, Date.now());
    const limited = retryAt === undefined ? '' : ` (rate limited until ${new Date(retryAt).toISOString()})`;
    throw new ForgeError(response.status, `${options.forgeName} answered ${response.status}: ${forgeMessage(text) ?? response.statusText}${limited}`, retryAt);
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ForgeError(502, `${options.forgeName} answered ${method} ${path} with something that is not JSON`);
  }
}

/**
 * The forge's own words from an error body: GitHub's `message` with its `errors[].message`, GitLab's `message`
 * (a string, a list, or field → list) or `error`.
 */
export function forgeMessage(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text.trim().slice(0, 300) || undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const { message, errors, error } = body as { message?: unknown; errors?: unknown; error?: unknown };
  const details = Array.isArray(errors)
    ? errors.map((entry) => (typeof entry === 'string' ? entry : typeof entry === 'object' && entry !== null && 'message' in entry ? String(entry.message) : undefined)).filter(Boolean)
    : [];
  const main = typeof message === 'string' ? message
    : Array.isArray(message) ? message.join('; ')
      : typeof message === 'object' && message !== null ? Object.entries(message).map(([field, words]) => `${field} ${Array.isArray(words) ? words.join(', ') : String(words)}`).join('; ')
        : typeof error === 'string' ? error : undefined;
  return [main, ...details].filter(Boolean).join(': ') || undefined;
}
