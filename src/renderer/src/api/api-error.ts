// The one error the desk client throws: a DeskError carrying the HTTP status and the server's
// `{error, code, message, details}`. A subclass only for `status` and the protocol word, which callers read.
import { ApiErrorBody, type ApiErrorCode } from '../../../shared/api-error';
import { DeskError, type DeskErrorDetails, type DeskErrorKind } from '../../../shared/desk-error';

const KIND_OF_WORD: Record<ApiErrorCode | 'network_error', DeskErrorKind> = {
  bad_request: 'malformed', validation_error: 'invalid', unauthorized: 'unauthorized', forbidden: 'forbidden',
  not_found: 'not_found', method_not_allowed: 'method_not_allowed', conflict: 'conflict', payload_too_large: 'too_large',
  unsupported_media_type: 'unsupported_media_type', too_many_requests: 'too_many_requests', unavailable: 'unavailable',
  bad_gateway: 'bad_gateway', internal_error: 'internal', network_error: 'unavailable',
};

export class ApiError extends DeskError {
  constructor(
    readonly status: number,
    /** The protocol word (`not_found`, `conflict`…), or `network_error` when the desk could not be reached. */
    readonly error: ApiErrorCode | 'network_error',
    message: string,
    details?: DeskErrorDetails,
    code: string = error,
  ) {
    super(KIND_OF_WORD[error] ?? 'internal', code, message, details);
    this.name = 'ApiError';
  }

  /** Builds the error from a failed response's body, which may not be JSON (a proxy, a crash). */
  static fromBody(status: number, body: unknown): ApiError {
    const parsed = ApiErrorBody.safeParse(body);
    if (parsed.success) {
      const { error, message, details, code } = parsed.data;
      return new ApiError(status, error, message, details, code ?? error);
    }
    return new ApiError(status, 'internal_error', `The desk answered ${status} without an explanation.`);
  }
}

/** A sentence for a person, whatever was thrown. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
