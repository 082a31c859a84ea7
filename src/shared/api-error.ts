// The one error shape every HTTP route answers with: `{error, message}`.
import { z } from 'zod';

export const ApiErrorCode = z.enum([
  'bad_request',
  'validation_error',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'internal_error',
]);
export type ApiErrorCode = z.infer<typeof ApiErrorCode>;

export const ApiErrorBody = z.object({
  error: ApiErrorCode,
  message: z.string(),
  /** Extra machine-readable facts, e.g. the cycle for a `conflict`. */
  details: z.unknown().optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
