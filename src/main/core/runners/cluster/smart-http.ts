// Answers git's smart HTTP protocol (v0, stateless RPC) for one bare repository by running
// upload-pack / receive-pack directly and streaming bodies both ways, without CGI and without
// holding a whole pack in memory.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { startGit } from './exchange-git';

export type GitService = 'git-upload-pack' | 'git-receive-pack';

/** What a request asks for, decided from its method, path and query alone. */
export type SmartHttpRoute =
  | { kind: 'advertise'; service: GitService }
  | { kind: 'rpc'; service: GitService }
  | { kind: 'refuse'; status: number; message: string; allow?: string };

const SERVICES: readonly GitService[] = ['git-upload-pack', 'git-receive-pack'];
const isService = (name: string | null): name is GitService => SERVICES.includes(name as GitService);

/** Maps a request below the repository's root to what to do with it. */
export function routeSmartHttp(method: string | undefined, subpath: string, url: string | undefined): SmartHttpRoute {
  const path = subpath.split('?')[0]?.replace(/^\/+/, '') ?? '';
  if (path === 'info/refs') {
    if (method !== 'GET') return { kind: 'refuse', status: 405, message: 'info/refs answers GET only', allow: 'GET' };
    const service = new URL(url ?? '/', 'http://desk.invalid').searchParams.get('service');
    if (!isService(service)) return { kind: 'refuse', status: 404, message: 'Only the smart protocol is served: ask for ?service=git-upload-pack or git-receive-pack' };
    return { kind: 'advertise', service };
  }
  if (isService(path)) {
    if (method !== 'POST') return { kind: 'refuse', status: 405, message: `${path} answers POST only`, allow: 'POST' };
    return { kind: 'rpc', service: path };
  }
  return { kind: 'refuse', status: 404, message: 'Not found' };
}

/** A pkt-line: four hex digits of length (themselves included), then the payload. */
export function pktLine(payload: string): string {
  return `${(Buffer.byteLength(payload) + 4).toString(16).padStart(4, '0')}${payload}`;
}

export interface SmartHttpOptions {
  /** The bare repository served. */
  repository: string;
  /** `name=value` settings for the git command (e.g. core.hooksPath). */
  config?: readonly string[];
  /** Extra environment for the git process (the hook's inputs). */
  env?: Record<string, string>;
}

/** Serves one request of the smart protocol for `options.repository`. Resolves when the response is finished or abandoned. */
export async function serveSmartHttp(request: IncomingMessage, response: ServerResponse, subpath: string, options: SmartHttpOptions): Promise<void> {
  const route = routeSmartHttp(request.method, subpath, request.url);
  if (route.kind === 'refuse') {
    request.resume();
    sendText(response, route.status, route.message, route.allow ? { Allow: route.allow } : {});
    return;
  }
  let body: Readable | undefined;
  if (route.kind === 'rpc') {
    const type = request.headers['content-type'];
    if (type !== `application/x-${route.service}-request`) {
      request.resume();
      sendText(response, 415, `Expected Content-Type application/x-${route.service}-request`);
      return;
    }
    const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    // zlib is loaded by the first gzipped push, not at the desk's start.
    if (encoding === 'gzip' || encoding === 'x-gzip') body = request.pipe(process.getBuiltinModule('node:zlib').createGunzip());
    else if (encoding === 'identity') body = request;
    else {
      request.resume();
      sendText(response, 415, `Unsupported Content-Encoding ${encoding}`);
      return;
    }
  }
  const advertise = route.kind === 'advertise';
  const args = [
    ...(options.config ?? []).flatMap((setting) => ['-c', setting]),
    route.service.slice('git-'.length), '--stateless-rpc', ...(advertise ? ['--advertise-refs'] : []), options.repository,
  ];
  response.setHeader('Content-Type', `application/x-${route.service}-${advertise ? 'advertisement' : 'result'}`);
  response.setHeader('Cache-Control', 'no-cache, max-age=0, must-revalidate');
  response.setHeader('Expires', 'Fri, 01 Jan 1980 00:00:00 GMT');
  response.setHeader('Pragma', 'no-cache');
  // The service announcement goes out with git's first bytes, so a git that fails at once still gets a 500.
  await runStreaming(args, options.env ?? {}, body, response, advertise ? `${pktLine(`# service=${route.service}\n`)}0000` : '');
}

function runStreaming(args: string[], env: Record<string, string>, body: Readable | undefined, response: ServerResponse, prefix: string): Promise<void> {
  return new Promise((resolve) => {
    const child = startGit(args, env);
    const stderr: Buffer[] = [];
    let pending = prefix;
    let settled = false;
    const finish = () => {
      if (!settled) { settled = true; resolve(); }
    };
    const fail = (message: string) => {
      if (!response.headersSent) sendText(response, 500, message);
      else response.destroy(new Error(message));
      finish();
    };

    child.stderr.on('data', (chunk: Buffer) => { if (stderr.length < 64) stderr.push(chunk); });
    child.stdout.on('data', (chunk: Buffer) => {
      const ready = response.write(pending === '' ? chunk : Buffer.concat([Buffer.from(pending), chunk]));
      pending = '';
      // Backpressure: a slow client holds git back rather than filling memory.
      if (!ready) {
        child.stdout.pause();
        response.once('drain', () => child.stdout.resume());
      }
    });
    child.on('error', (error) => fail(`git could not start: ${error.message}`));
    child.on('close', (code, signal) => {
      if (settled) return;
      if (code !== 0) {
        fail(`git ${args.join(' ')} failed (${signal ?? `exit ${code}`}): ${Buffer.concat(stderr).toString('utf8').trim()}`);
        return;
      }
      response.end(pending);
      finish();
    });
    // A client gone before the end: stop git (a push git has not finished receiving is never applied).
    response.on('close', () => {
      if (!response.writableFinished) {
        child.kill();
        finish();
      }
    });

    // git may stop reading early (e.g. it refused the request); that is its exit code's story, not stdin's.
    child.stdin.on('error', () => undefined);
    if (!body) {
      child.stdin.end();
      return;
    }
    body.on('error', (error) => {
      child.kill();
      fail(`the request body could not be read: ${error.message}`);
    });
    body.pipe(child.stdin);
  });
}

function sendText(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
  response.end(`${message}\n`);
}
