// The agent's stdio transport reads and writes ndjson as the web-stream channel does: whole lines however the bytes
// arrive, blank lines skipped, a line that is not JSON answered with a parse error, and one close when input ends.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { stdioTransport } from './stdio-transport';

function started(): { input: PassThrough; written: () => unknown[]; received: unknown[]; closed: Promise<Error> } {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const transport = stdioTransport(input, output);
  const received: unknown[] = [];
  transport.start((message) => received.push(message));
  const closed = new Promise<Error>((resolve) => transport.onClose(resolve));
  return { input, received, closed, written: () => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown) };
}

describe('the stdio transport', () => {
  it('delivers messages split across chunks and several in one chunk, in order, skipping blank lines', async () => {
    const { input, received, closed } = started();
    // The second line's "é" is cut between its two bytes.
    const bytes = Buffer.from('{"a":1}\r\n\n{"b":"é"}\n{"c":3}\n');
    const cut = bytes.indexOf(0xc3) + 1;
    input.write(bytes.subarray(0, 3));
    input.write(bytes.subarray(3, cut));
    input.write(bytes.subarray(cut));
    input.end('{"d":4}');
    await closed;
    expect(received).toEqual([{ a: 1 }, { b: 'é' }, { c: 3 }, { d: 4 }]);
  });

  it('answers a line that is not JSON with a parse error (id null) and goes on reading', async () => {
    const { input, received, closed, written } = started();
    input.end('{oops\n{"ok":true}\n');
    await closed;
    expect(written()).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }]);
    expect(received).toEqual([{ ok: true }]);
  });

  it('closes once, saying the other side closed its output, when the input ends', async () => {
    const { input, closed } = started();
    input.end();
    expect((await closed).message).toBe('The other side closed its output');
  });
});
