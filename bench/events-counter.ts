// Child process of bench/updates.ts: counts one task's agent message chunks on the desk's events socket,
// in a process of its own so that decoding them does not load the desk's event loop (a real UI is elsewhere too).
// Usage: events-counter.ts <desk url> <token> <task id> <count>. Speaks JSON lines on stdout: ready, then done or failed.
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import type { EventsMessage } from '../src/shared/events';

export type CounterReport =
  | { type: 'ready' }
  | { type: 'done'; count: number; elapsedMs: number; firstBatch: number; firstAtEpoch: number }
  | { type: 'failed'; message: string };

function report(message: CounterReport, exitCode?: number): void {
  process.stdout.write(`${JSON.stringify(message)}\n`, () => {
    if (exitCode !== undefined) process.exit(exitCode);
  });
}

function main([url, token, taskId, countText]: string[]): void {
  const target = Number(countText);
  if (!url || !token || !taskId || !Number.isSafeInteger(target) || target < 1) {
    report({ type: 'failed', message: 'usage: events-counter.ts <desk url> <token> <task id> <count>' }, 2);
    return;
  }
  let count = 0;
  let firstAt: number | undefined;
  let firstBatch = 0;
  let finished = false;

  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/events`, { headers: { authorization: `Bearer ${token}` } });
  socket.on('open', () => report({ type: 'ready' }));
  socket.on('message', (data: WebSocket.RawData) => {
    if (finished) return;
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    const message = JSON.parse(bytes.toString('utf8')) as EventsMessage;
    let seen = 0;
    for (const envelope of message.events) {
      const event = envelope.event;
      if (envelope.taskId === taskId && event.type === 'agent' && event.update.kind === 'message' && event.update.role === 'agent') seen += 1;
    }
    if (seen === 0) return;
    const now = performance.now();
    if (firstAt === undefined) {
      firstAt = now;
      firstBatch = seen;
    }
    count += seen;
    if (count >= target) {
      finished = true;
      report({ type: 'done', count, elapsedMs: now - firstAt, firstBatch, firstAtEpoch: performance.timeOrigin + firstAt }, 0);
    }
  });
  socket.on('error', (error) => report({ type: 'failed', message: `events socket: ${error.message}` }, 1));
  socket.on('close', (code, reason) => {
    if (!finished) report({ type: 'failed', message: `events socket closed (${code} ${reason.toString('utf8')}) after ${count} of ${target}` }, 1);
  });
}

main(process.argv.slice(2));
