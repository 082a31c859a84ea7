// Serves the built board (the renderer) at /ui/: public files, since the token travels in the URL fragment.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { HttpError } from './http-error';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json', '.woff2': 'font/woff2',
  '.map': 'application/json', '.txt': 'text/plain; charset=utf-8',
};

/** The board's own page may only talk to this server (HTTP and its events socket). */
function contentSecurityPolicy(host: string): string {
  return [
    "default-src 'self'", `connect-src 'self' ws://${host}`, "img-src 'self' data:", "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data:", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'none'",
  ].join('; ');
}

/** A path below /ui/, decoded; malformed percent-encoding and NUL bytes are the client's mistake, not a missing file. */
function decodePath(encoded: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    throw new HttpError(400, 'bad_request', 'Malformed percent-encoding in the path.');
  }
  if (decoded.includes('\0')) throw new HttpError(400, 'bad_request', 'The path contains a NUL byte.');
  return decoded;
}

/** Whether a path is the board's (/ui and below), which the static files answer before any route. */
export function isUiPath(pathname: string): boolean {
  return pathname === '/ui' || pathname.startsWith('/ui/');
}

export interface StaticUi {
  /** Answers GET/HEAD under /ui/ and returns true; false for any other request. */
  handle(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<boolean>;
}

export function createStaticUi(root: string | undefined): StaticUi {
  return {
    async handle(request, response, pathname) {
      if (!isUiPath(pathname)) return false;
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      if (pathname === '/ui') {
        response.writeHead(308, { Location: '/ui/' }).end();
        return true;
      }
      const relative = decodePath(pathname.slice('/ui/'.length)) || 'index.html';
      const file = root === undefined ? undefined : normalize(join(root, relative));
      const inside = file !== undefined && root !== undefined && (file === root || file.startsWith(root.endsWith(sep) ? root : root + sep));
      const info = inside ? await stat(file as string).catch(() => undefined) : undefined;
      if (!info?.isFile()) {
        const body = root === undefined ? 'The board is not built: run npm run build.' : 'Not found.';
        response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(body);
        return true;
      }
      const isPage = extname(file as string) === '.html';
      response.writeHead(200, {
        'Content-Type': TYPES[extname(file as string)] ?? 'application/octet-stream',
        'Content-Length': info.size,
        // Hashed assets never change; the page itself must be fetched fresh after an upgrade.
        'Cache-Control': isPage ? 'no-cache' : 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        ...(isPage && { 'Content-Security-Policy': contentSecurityPolicy(request.headers.host ?? '127.0.0.1') }),
      });
      if (request.method === 'HEAD') {
        response.end();
        return true;
      }
      // The file may vanish or fail between stat and read; the status is already sent, so cut the answer short.
      createReadStream(file as string).on('error', () => response.destroy()).pipe(response);
      return true;
    },
  };
}
