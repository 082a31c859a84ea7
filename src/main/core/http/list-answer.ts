// Answers for large JSON lists: an ETag (304 when the client holds it already), compressed with gzip or brotli
// when the client accepts it and the body is big enough to pay for it; each encoding made once per version.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';

/** Below this a compressed body saves less than the work and the header cost. */
export const MIN_COMPRESSED_BYTES = 1024;

/** zlib, loaded when a list is first compressed: a start answers its first requests without it. */
const zlib = () => process.getBuiltinModule('node:zlib');

type Encoding = 'br' | 'gzip';

/** An answer the server sends as it is: the body already serialized (and maybe compressed), with its headers. */
export class PreparedAnswer {
  constructor(readonly status: number, readonly body: string | Buffer, readonly headers: Record<string, string>) {}
}

/** One serialized list: its text, its ETag, and its compressed forms, made when first asked for. */
export interface EncodedList {
  readonly text: string;
  readonly etag: string;
  /** The text as UTF-8 bytes, made once: converting a list of 10,000 tasks per request left megabytes of garbage behind. */
  bytes(): Buffer;
  encoded(encoding: Encoding): Promise<Buffer>;
}

export function encodeList(text: string): EncodedList {
  const etag = `"${createHash('sha1').update(text).digest('base64url')}"`;
  const made = new Map<Encoding, Promise<Buffer>>();
  let bytes: Buffer | undefined;
  return {
    text,
    etag,
    bytes: () => (bytes ??= Buffer.from(text, 'utf8')),
    encoded(encoding) {
      let pending = made.get(encoding);
      if (!pending) {
        // Compression runs on libuv's pool, not on the thread that answers requests. Brotli's default (11) is far too slow here.
        const { brotliCompress, constants, gzip } = zlib();
        pending = encoding === 'br'
          ? promisify(brotliCompress)(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text) } })
          : promisify(gzip)(text, { level: 6 });
        made.set(encoding, pending);
      }
      return pending;
    },
  };
}

/** Keeps the encoded list of the latest version only: a change makes the old one useless. */
export function createListCache(): { get(version: string, build: () => string): EncodedList } {
  let latest: { version: string; list: EncodedList } | undefined;
  return {
    get(version, build) {
      if (latest?.version !== version) latest = { version, list: encodeList(build()) };
      return latest.list;
    },
  };
}

/** 304 when `If-None-Match` names the list's ETag; else the list, compressed when that is accepted and worth it. */
export async function answerList(request: IncomingMessage, list: EncodedList): Promise<PreparedAnswer> {
  const headers: Record<string, string> = { ETag: list.etag, 'Cache-Control': 'private, no-cache', Vary: 'Accept-Encoding' };
  if (matchesEtag(request.headers['if-none-match'], list.etag)) return new PreparedAnswer(304, '', headers);
  const encoding = Buffer.byteLength(list.text) >= MIN_COMPRESSED_BYTES ? acceptedEncoding(request.headers['accept-encoding']) : undefined;
  if (!encoding) return new PreparedAnswer(200, list.bytes(), headers);
  return new PreparedAnswer(200, await list.encoded(encoding), { ...headers, 'Content-Encoding': encoding });
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/** Brotli when offered, else gzip; an encoding with `q=0` is refused. */
export function acceptedEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const offered = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    offered.set(name.trim(), q === undefined ? 1 : Number(q.slice(2)));
  }
  const accepts = (name: Encoding) => (offered.get(name) ?? offered.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return undefined;
}
