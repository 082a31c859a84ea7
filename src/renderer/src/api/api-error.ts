// The one error the desk client throws: the HTTP status, the server's `{error, message}` and any details.
import { ApiErrorBody, type ApiErrorCode } from '../../../shared/api-error';

export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode | 'network_error';
  readonly details: unknown;

  constructor(status: number, code: ApiError['code'], message: string, details?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** Builds the error from a failed response's body, which may not be JSON (a proxy, a crash). */
  static fromBody(status: number, body: unknown): ApiError {
    const parsed = ApiErrorBody.safeParse(body);
    if (parsed.success) return new ApiError(status, parsed.data.error, parsed.data.message, parsed.data.details);
    return new ApiError(status, 'internal_error', `The desk answered ${status} without an explanation.`);
  }
}

/** A sentence for a person, whatever was thrown. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
