// The one error shape every HTTP route answers with: `{error, code, message, details?}`.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

export const ApiErrorCode = lazySchema(() => z.enum([
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
  'unavailable',
  'bad_gateway',
  'internal_error',
]));
export type ApiErrorCode = z.infer<typeof ApiErrorCode>;

export const ApiErrorBody = lazySchema(() => z.object({
  error: ApiErrorCode,
  /** The stable snake_case code of the cause (`task_not_found`, `dependency_cycle`); see src/shared/desk-error.ts. */
  code: z.string().optional(),
  message: z.string(),
  /** Extra machine-readable facts, e.g. the cycle for a `conflict`. */
  details: z.record(z.string(), z.unknown()).optional(),
}));
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
