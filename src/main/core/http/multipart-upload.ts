// Reads a multipart/form-data upload (one file plus small text fields) into memory, size-limited while streaming.
import type busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { HttpError } from './http-error';

export interface MultipartFile { fileName: string; mimeType: string; data: Buffer }
export interface MultipartForm { file?: MultipartFile; fields: Record<string, string> }

// Loaded with the first upload, not at start.
const loadBusboy = (): typeof busboy => createRequire(import.meta.url)('busboy') as typeof busboy;

/** Room for the form's headers and text fields besides the file itself. */
const FORM_OVERHEAD_BYTES = 256 * 1024;

export async function readMultipartFile(request: IncomingMessage, options: { fileField: string; maxFileBytes: number }): Promise<MultipartForm> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'multipart/form-data') {
    throw new HttpError(415, 'unsupported_media_type', `Send the file as multipart/form-data with a "${options.fileField}" field (got ${type ? `"${type}"` : 'no Content-Type'}).`);
  }
  const tooLarge = () => new HttpError(413, 'payload_too_large', `The file is larger than ${options.maxFileBytes / 1024 / 1024} MiB.`, undefined, { Connection: 'close' });
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxFileBytes + FORM_OVERHEAD_BYTES) throw tooLarge();

  const endedEarly = () => new HttpError(400, 'bad_request', 'The upload ended before the whole form was sent.');
  let parser: busboy.Busboy;
  try {
    parser = loadBusboy()({ headers: request.headers, limits: { fileSize: options.maxFileBytes, files: 5, fields: 20, fieldSize: 64 * 1024, parts: 30 } });
  } catch (error) {
    throw new HttpError(400, 'bad_request', `The multipart body cannot be read: ${(error as Error).message}`);
  }

  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: MultipartFile | undefined;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      // Stop parsing; the server answers and drains (or closes) the rest of the request.
      request.unpipe(parser);
      reject(error);
    };

    parser.on('file', (name, stream, info) => {
      // busboy destroys a part's stream with an error when the form ends mid-file; the parser reports it too.
      stream.on('error', () => {});
      if (name !== options.fileField || file !== undefined) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(tooLarge()));
      stream.on('end', () => {
        if (!stream.truncated) file = { fileName: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) };
      });
    });
    parser.on('field', (name, value) => { fields[name] = value; });
    parser.on('error', (error: Error) => fail(new HttpError(400, 'bad_request', `The multipart body is malformed: ${error.message}`)));
    parser.on('close', () => {
      if (!failed) resolve({ ...(file !== undefined && { file }), fields });
    });
    request.on('error', () => fail(endedEarly()));
    // A client hanging up mid-upload ends neither the request stream nor the parser; without this the answer would never settle.
    request.on('close', () => {
      if (!request.complete) fail(endedEarly());
    });
    request.pipe(parser);
  });
}
