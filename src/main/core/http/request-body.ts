// Reads a JSON request body: content type checked, size limited while streaming, parse errors made clear.
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { HttpError } from './http-error';

export const MAX_BODY_BYTES = 1024 * 1024;

export async function readJsonBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json' && !type?.endsWith('+json')) {
    throw new HttpError(415, 'unsupported_media_type', `Send the body as application/json (got ${type ? `"${type}"` : 'no Content-Type'}).`);
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);

  const text = decodeUtf8(await readAll(request, limit));
  if (text.trim() === '') throw new HttpError(400, 'bad_request', 'The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, 'bad_request', `The body is not valid JSON: ${(error as Error).message}`);
  }
}

/** The whole body, refused once it passes `limit`. Plain stream events: an async iterator per request cost more. */
function readAll(request: IncomingMessage, limit: number): Promise<Buffer> {
  if (request.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error?: HttpError) => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) {
        // Stop taking what the client still sends; the answer says why.
        request.pause();
        reject(error);
      } else {
        resolve(chunks.length === 1 ? chunks[0] as Buffer : Buffer.concat(chunks));
      }
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) settle(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => settle();
    // The client hung up mid-body: nobody is left to read the answer, and it is not the desk's failure.
    const onError = (error: Error) => settle(new HttpError(400, 'bad_request', `The request body ended early: ${error.message}`));
    const onClose = () => { if (!request.complete) settle(new HttpError(400, 'bad_request', 'The request body ended early: aborted')); };
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** JSON is UTF-8 (RFC 8259); replacing bad bytes with U+FFFD would silently change what the client sent. */
function decodeUtf8(bytes: Buffer): string {
  if (!isUtf8(bytes)) throw new HttpError(400, 'bad_request', 'The body is not valid UTF-8.');
  return bytes.toString('utf8');
}

function tooLarge(limit: number): HttpError {
  // The client may still be sending: close the connection after answering instead of reading the rest.
  return new HttpError(413, 'payload_too_large', `The body is larger than ${limit / 1024 / 1024} MiB.`, undefined, { Connection: 'close' });
}

/** Validates a parsed body; the error names the first field that is wrong. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : undefined;
  const message = field ? `${field}: ${issue?.message}` : (issue?.message ?? 'invalid body');
  throw new HttpError(400, 'validation_error', message, { field, issues: result.error.issues.map((i) => ({ path: i.path, message: i.message })) });
}
