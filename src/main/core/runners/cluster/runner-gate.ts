// The desk's door for cluster containers, below /runner/<task>/: `git/…` (the task's git exchange, smart HTTP) and
// `connect` (the one connection the container's helper opens for the agent's stream). Each run has a token of its
// own, good for that task's door alone and only while the run lasts; the desk's token opens nothing here.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpError } from '../../http/http-error';
import { bearerTokenOf } from '../../http/security';
import type { TaskExchange } from './task-git-exchange';
import { acceptRunnerUpgrade, linkOverSocket, type RunnerLink } from './runner-link';
import { RUNNER_PATH_PREFIX } from '../../../../shared/runners';

/** One run's door: the token the container is given, and its connection once it calls. */
export interface OpenRun {
  readonly token: string;
  /** The path below the desk's URL the helper is given (`/runner/<task>`). */
  readonly path: string;
  /** Resolves when the container connects (once); rejects when the run is closed first. */
  readonly connected: Promise<RunnerLink>;
  /** Revokes the token: the door is shut for this run from now on. */
  close(): void;
}

export interface RunnerGate {
  open(taskId: string, exchange: TaskExchange, onLogLine?: (line: string) => void): OpenRun;
  /** Serves a request whose path starts with /runner/; throws HttpError 401 (no or wrong token) or 404. */
  handle(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void>;
  /** Takes an upgrade whose path starts with /runner/; throws HttpError 401, 404 or 409 (already connected). */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, pathname: string): void;
}

interface Run {
  taskId: string;
  tokenHash: Buffer;
  exchange: TaskExchange;
  onLogLine?: (line: string) => void;
  linked: boolean;
  resolve(link: RunnerLink): void;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest();

/** `/runner/<task>/<rest>` → the task id and the rest; undefined for anything else. */
export function runnerPathParts(pathname: string): { taskId: string; rest: string } | undefined {
  if (!pathname.startsWith(RUNNER_PATH_PREFIX)) return undefined;
  const [encodedId, ...rest] = pathname.slice(RUNNER_PATH_PREFIX.length).split('/');
  if (!encodedId || rest.length === 0) return undefined;
  try {
    return { taskId: decodeURIComponent(encodedId), rest: rest.join('/') };
  } catch {
    return undefined;
  }
}

export function createRunnerGate(): RunnerGate {
  const runs = new Map<string, Run>();

  /** The run a request may open: its task's door must be open and the token must be that run's. */
  function admitted(request: IncomingMessage, pathname: string): { run: Run; rest: string } {
    const parts = runnerPathParts(pathname);
    const presented = bearerTokenOf(request.headers.authorization);
    const run = parts === undefined ? undefined : runs.get(parts.taskId);
    // Whether a task runs on the cluster is not told to a caller without its token: every miss is one 401.
    if (!parts || !run || presented === undefined || !timingSafeEqual(hashOf(presented), run.tokenHash)) {
      throw new HttpError(401, 'unauthorized', 'Send this task run\'s runner token as "Authorization: Bearer <token>".', undefined, {
        'WWW-Authenticate': 'Bearer realm="Assignment Desk runner"',
      });
    }
    return { run, rest: parts.rest };
  }

  return {
    open(taskId, exchange, onLogLine) {
      const token = randomBytes(32).toString('base64url');
      let resolve: (link: RunnerLink) => void = () => {};
      let reject: (error: Error) => void = () => {};
      const connected = new Promise<RunnerLink>((resolveLink, rejectLink) => { resolve = resolveLink; reject = rejectLink; });
      // Nobody may be waiting when a run is closed before its container called: that is no failure of its own.
      connected.catch(() => undefined);
      const run: Run = { taskId, tokenHash: hashOf(token), exchange, linked: false, resolve, ...(onLogLine && { onLogLine }) };
      runs.set(taskId, run);
      return {
        token,
        path: `/runner/${encodeURIComponent(taskId)}`,
        connected,
        close() {
          if (runs.get(taskId) === run) runs.delete(taskId);
          reject(new Error('The run ended before its container connected.'));
        },
      };
    },

    async handle(request, response, pathname) {
      const { run, rest } = admitted(request, pathname);
      if (!rest.startsWith('git/')) throw new HttpError(404, 'not_found', `Nothing at ${pathname}.`);
      await run.exchange.serve(request, response, rest.slice('git/'.length));
    },

    upgrade(request, socket, head, pathname) {
      const { run, rest } = admitted(request, pathname);
      if (rest !== 'connect' || (request.headers.upgrade ?? '').toLowerCase() !== 'desk-runner') {
        throw new HttpError(404, 'not_found', `No connection at ${pathname}: connect to ${RUNNER_PATH_PREFIX}<task>/connect with "Upgrade: desk-runner".`);
      }
      if (run.linked) throw new HttpError(409, 'conflict', 'This run\'s container is already connected.');
      run.linked = true;
      acceptRunnerUpgrade(socket);
      run.resolve(linkOverSocket(socket, head, { taskId: run.taskId, ...(run.onLogLine && { onLogLine: run.onLogLine }) }));
    },
  };
}
