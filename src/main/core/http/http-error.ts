// An error that knows its HTTP status and `{error, message}` body; domain errors are mapped to it at the edge.
import type { ApiErrorBody, ApiErrorCode } from '../../../shared/api-error';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): ApiErrorBody {
    return { error: this.code, message: this.message, ...(this.details !== undefined && { details: this.details }) };
  }
}
