// The one error type of the desk: a kind (what sort of refusal, which the HTTP edge turns into a status)
// and a stable snake_case code per cause, so clients and callers react to the code, never to the words.
// Plain TypeScript, no zod, so the board can import it without pulling zod into its bundle.

/** What sort of refusal an error is; every protocol answers each kind with one HTTP status. */
export const DESK_ERROR_KINDS = [
  'invalid', 'malformed', 'unauthorized', 'forbidden', 'not_found', 'method_not_allowed', 'conflict',
  'too_large', 'unsupported_media_type', 'too_many_requests', 'unavailable', 'bad_gateway', 'internal',
] as const;
export type DeskErrorKind = (typeof DESK_ERROR_KINDS)[number];

/** Extra machine-readable facts of an error (the cycle, the conflicting paths, the field…), sent to clients. */
export type DeskErrorDetails = Record<string, unknown>;

export class DeskError extends Error {
  constructor(
    readonly kind: DeskErrorKind,
    /** Stable, snake_case, one per cause (`task_not_found`, `dependency_cycle`). */
    readonly code: string,
    message: string,
    readonly details?: DeskErrorDetails,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DeskError';
  }
}

/** Makes a DeskError; the factories of each layer (`taskNotFound(id)`) are written with it. */
export function deskError(kind: DeskErrorKind, code: string, message: string, details?: DeskErrorDetails): DeskError {
  return new DeskError(kind, code, message, details);
}

/** True when `error` is a DeskError, and, given `code`, one with that code. */
export function isDeskError(error: unknown, code?: string): error is DeskError {
  return error instanceof DeskError && (code === undefined || error.code === code);
}
