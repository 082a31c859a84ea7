// Test support: raw bytes over TCP to an HTTP server, for requests no HTTP client would send.
import { connect } from 'node:net';

/**
 * Writes `bytes` (in the given pieces, so a test can stop mid-request) and resolves with everything the server
 * sent until it closed the connection, or until `waitMs` of silence after it answered ends the wait. A server
 * that has not answered at all gets `firstAnswerMs` (a busy machine may take a while), then the wait ends too.
 */
export function sendRaw(port: number, pieces: (string | Buffer)[], options: { waitMs?: number; firstAnswerMs?: number; hangUp?: boolean } = {}): Promise<string> {
  const { waitMs = 1000, firstAnswerMs = 10_000, hangUp = false } = options;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(received).toString('latin1'));
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(finish, received.length > 0 ? waitMs : firstAnswerMs);
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      arm();
    });
    socket.on('close', finish);
    socket.on('error', finish);
    socket.on('connect', () => {
      for (const piece of pieces) socket.write(piece);
      if (hangUp) setTimeout(() => socket.destroy(), 20);
      arm();
    });
  });
}

/** The status code of the first response in a raw answer, or 0 when there is none. */
export function statusOf(raw: string): number {
  return Number(/^HTTP\/1\.[01] (\d{3}) /.exec(raw)?.[1] ?? 0);
}
