import { describe, expect, it } from 'vitest';
import { JsonRpcError, PeerClosedError } from '../../../../shared/json-rpc-peer';
import { createLinkControl } from './link-control';
import { createLineSplitter } from './link-lines';

function control(maxPending?: number) {
  const sent: { id: number; method: string }[] = [];
  const malformed: string[] = [];
  const link = createLinkControl({
    send: (json) => sent.push(JSON.parse(json) as { id: number; method: string }),
    onMalformed: (reason) => malformed.push(reason),
    ...(maxPending !== undefined && { maxPending }),
  });
  return { link, sent, malformed };
}

describe('the control channel of a runner link', () => {
  it('settles a request with the helper\'s answer', async () => {
    const { link, sent } = control();
    const answer = link.request('files/read', { path: '/w/a.txt' });
    link.receive(JSON.stringify({ id: sent[0]?.id, result: { content: 'hello' } }));
    await expect(answer).resolves.toEqual({ content: 'hello' });
  });

  it('rejects with the helper\'s error, code and message', async () => {
    const { link, sent } = control();
    const answer = link.request('push', {});
    link.receive(JSON.stringify({ id: sent[0]?.id, error: { code: -32602, message: 'refused' } }));
    await expect(answer).rejects.toEqual(new JsonRpcError(-32602, 'refused'));
  });

  it('drops lines that are not JSON or of an unknown shape, and says so', () => {
    const { link, malformed } = control();
    expect(link.receive('{not json')).toBeUndefined();
    expect(link.receive(JSON.stringify({ method: 'exit', params: { code: 'zero' } }))).toBeUndefined();
    expect(link.receive(JSON.stringify({ method: 'log', params: { line: 'hi' } }))).toEqual({ method: 'log', params: { line: 'hi' } });
    expect(malformed).toHaveLength(2);
  });

  it('refuses more requests than it lets wait', async () => {
    const { link } = control(1);
    void link.request('push', {}).catch(() => {});
    await expect(link.request('push', {})).rejects.toThrow(/unanswered/);
  });

  it('fails what is pending, and what comes later, once closed', async () => {
    const { link } = control();
    const pending = link.request('push', {});
    link.close(new Error('gone'));
    await expect(pending).rejects.toBeInstanceOf(PeerClosedError);
    await expect(link.request('push', {})).rejects.toBeInstanceOf(PeerClosedError);
  });
});

describe('the line splitter of a runner link', () => {
  it('joins lines across chunks and drops a line longer than the limit whole', () => {
    const lines: string[] = [];
    let overlong = 0;
    const split = createLineSplitter(8, (line) => lines.push(line), () => { overlong += 1; });
    split(Buffer.from('ab'));
    split(Buffer.from('c\n0123456789'));
    split(Buffer.from('more\nok\n'));
    expect(lines).toEqual(['abc', 'ok']);
    expect(overlong).toBe(1);
  });
});
