import { describe, expect, it } from 'vitest';
import { appendToStream, createStream } from './task-stream';
import { chunk, envelope } from './test-events';
import { addTokens, usageText } from './token-usage';

const turnUsage = (input: number, output: number) => ({ type: 'agent' as const, update: { kind: 'turn-usage' as const, inputTokens: input, outputTokens: output, totalTokens: input + output } });
const usage = (used: number, cost?: number) => ({ type: 'agent' as const, update: { kind: 'usage' as const, used, size: 200000, ...(cost !== undefined && { cost: { amount: cost, currency: 'USD' } }) } });
const prompt = (turn: number) => ({ type: 'prompt' as const, turn, text: `turn ${turn}` });

describe('tokens in the stream', () => {
  it("shows one row per turn with that turn's tokens, context and cost, updated as reports come", () => {
    const stream = createStream();
    appendToStream(stream, [envelope(1, 't', prompt(1)), envelope(2, 't', usage(1200, 0.01)), envelope(3, 't', chunk('done')), envelope(4, 't', usage(1800, 0.02)), envelope(5, 't', turnUsage(1500, 300))]);
    const rows = stream.items.filter((item) => item.kind === 'usage');
    expect(rows).toEqual([{ key: '2', kind: 'usage', turn: 1, usage: {
      context: { used: 1800, size: 200000 }, cost: { amount: 0.02, currency: 'USD' }, tokens: { inputTokens: 1500, outputTokens: 300, totalTokens: 1800 },
    } }]);
  });

  it("adds up the task's turns, each turn keeping its own row", () => {
    const stream = createStream();
    appendToStream(stream, [envelope(1, 't', prompt(1)), envelope(2, 't', turnUsage(100, 10)), envelope(3, 't', prompt(2)), envelope(4, 't', turnUsage(300, 30))]);
    expect(stream.items.filter((item) => item.kind === 'usage').map((item) => item.kind === 'usage' && item.usage.tokens?.totalTokens)).toEqual([110, 330]);
    expect(stream.usage.tokens).toEqual({ inputTokens: 400, outputTokens: 40, totalTokens: 440 });
  });

  it('does not break the message the agent is writing', () => {
    const stream = createStream();
    appendToStream(stream, [envelope(1, 't', chunk('Hel')), envelope(2, 't', usage(10)), envelope(3, 't', chunk('lo'))]);
    expect(stream.items.find((item) => item.kind === 'message')).toMatchObject({ text: 'Hello' });
  });
});

describe('usageText', () => {
  it('says the tokens by kind, the context and the cost so far', () => {
    expect(usageText({ tokens: { inputTokens: 1500, outputTokens: 300, totalTokens: 1800, cachedReadTokens: 1000 }, context: { used: 1800, size: 200000 }, cost: { amount: 0.0123, currency: 'USD' } }))
      .toBe('1,500 in · 300 out · 1,000 from cache · 1,800 tokens · context 1,800 of 200,000 · $0.0123 so far');
  });

  it('says only what was reported', () => {
    expect(usageText({ context: { used: 5, size: 100 } })).toBe('context 5 of 100');
  });
});

describe('addTokens', () => {
  it('adds kind by kind, keeping an optional kind either side counted', () => {
    expect(addTokens({ inputTokens: 1, outputTokens: 2, totalTokens: 3, thoughtTokens: 4 }, { inputTokens: 10, outputTokens: 20, totalTokens: 30 }))
      .toEqual({ inputTokens: 11, outputTokens: 22, totalTokens: 33, thoughtTokens: 4 });
  });
});
