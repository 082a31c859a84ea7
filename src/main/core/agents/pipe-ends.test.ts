import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ndjsonChannelOver } from '../../../shared/ndjson-channel';
import { pipeSink, pipeSource } from './pipe-ends';
import { readAll } from './test-support/read-all';

describe('a message channel over a child process pipes', () => {
  it('reads the messages written to the pipe, split anywhere, until it ends', async () => {
    const stdout = new PassThrough();
    const channel = ndjsonChannelOver(pipeSink(new PassThrough()), pipeSource(stdout));
    const messages = readAll(channel.readable);
    stdout.write('{"a":1}\n{"b"');
    setTimeout(() => { stdout.write(':2}\n'); stdout.end('{"c":3}\n'); }, 5);
    expect(await messages).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(channel.closedWith).toBeInstanceOf(Error);
  });

  it('closes with the error the pipe fails with', async () => {
    const stdout = new PassThrough();
    const channel = ndjsonChannelOver(pipeSink(new PassThrough()), pipeSource(stdout));
    const closed = new Promise<Error>((resolve) => channel.onClose(resolve));
    void readAll(channel.readable).catch(() => {});
    stdout.destroy(new Error('broken pipe'));
    expect((await closed).message).toBe('broken pipe');
  });

  it('writes one line per message, in order', async () => {
    const stdin = new PassThrough();
    const channel = ndjsonChannelOver(pipeSink(stdin), pipeSource(new PassThrough()));
    const writer = channel.writable.getWriter();
    await writer.write({ id: 1 });
    await writer.write({ id: 2 });
    expect(String(stdin.read())).toBe('{"id":1}\n{"id":2}\n');
  });

  it('fails a write once the pipe is gone', async () => {
    const stdin = new Writable({ write(_chunk, _encoding, done) { done(new Error('EPIPE')); } });
    stdin.on('error', () => {});
    await expect(pipeSink(stdin).write('x\n')).rejects.toThrow('EPIPE');
    await expect(pipeSink(stdin).write('y\n')).rejects.toThrow();
  });
});
