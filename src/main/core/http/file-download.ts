// Answers a request with a file's bytes as a download (octet-stream, its name in Content-Disposition).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** `attachment` with an ASCII fallback name and the exact name in RFC 5987 form for clients that read it. */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

export function sendDownload(request: IncomingMessage, response: ServerResponse, fileName: string, data: Buffer): void {
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/octet-stream',
    'Content-Length': data.length,
    'Content-Disposition': contentDisposition(fileName),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  // The server refused any Origin it does not allow before routing here; this answer bypasses its JSON path, so it
  // repeats the CORS header the JSON answers get.
  const origin = request.headers.origin;
  if (origin !== undefined) Object.assign(headers, { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' });
  response.writeHead(200, headers);
  response.end(data);
}
