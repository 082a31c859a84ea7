// The HTTP answer of a refusal: a DeskError that also knows its status, `error` word and headers.
// Routes throw it for what only HTTP knows (a bad Content-Type, a wrong method); `toHttpError` makes one
// from any DeskError. It stays a class because routes build it by status and word (`new HttpError(415, …)`).
import type { ApiErrorBody, ApiErrorCode } from '../../../shared/api-error';
import { DeskError, type DeskErrorDetails, type DeskErrorKind } from '../../../shared/desk-error';

/** The `error` word each kind answers with; the word is what existing clients read. */
export const ERROR_WORD: Record<DeskErrorKind, ApiErrorCode> = {
  invalid: 'validation_error',
  malformed: 'bad_request',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  not_found: 'not_found',
  method_not_allowed: 'method_not_allowed',
  conflict: 'conflict',
  too_large: 'payload_too_large',
  unsupported_media_type: 'unsupported_media_type',
  too_many_requests: 'too_many_requests',
  unavailable: 'unavailable',
  bad_gateway: 'bad_gateway',
  internal: 'internal_error',
};

const KIND_OF_WORD = Object.fromEntries(Object.entries(ERROR_WORD).map(([kind, word]) => [word, kind])) as Record<ApiErrorCode, DeskErrorKind>;

export class HttpError extends DeskError {
  constructor(
    readonly status: number,
    /** The protocol's error word (`not_found`, `validation_error`…). */
    readonly error: ApiErrorCode,
    message: string,
    details?: DeskErrorDetails,
    readonly headers: Record<string, string> = {},
    /** The stable code of the cause; the word itself when only HTTP knows the cause. */
    code: string = error,
  ) {
    super(KIND_OF_WORD[error], code, message, details);
  }

  body(): ApiErrorBody {
    return { error: this.error, code: this.code, message: this.message, ...(this.details !== undefined && { details: this.details }) };
  }
}
