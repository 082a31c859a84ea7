// The tokens an agent reports, as a client reads them in the task's events: each usage update (context used, window,
// cost) as it comes, and the turn's tokens from the agent's answer to the prompt at the end of each turn.
import { describe, expect, it } from 'vitest';
import { desksPerTest, taskEvents } from '../test-support/desk-harness';

const openDesk = desksPerTest();

const updatesOf = async (d: Awaited<ReturnType<typeof openDesk>>, id: string, kind: string) =>
  (await taskEvents(d, id)).flatMap((event) => (event.type === 'agent' && event.update.kind === kind ? [event.update] : []));

describe('tokens an agent reports', () => {
  it("records each usage update and the turn's tokens at its end", async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'counted', prompt: 'usage 1000 200\nsay half way\nusage 500 100\nsay done' });
    await d.waitForStatus('counted', 'completed');
    expect(await updatesOf(d, 'counted', 'usage')).toEqual([
      { kind: 'usage', used: 1200, size: 200000 },
      { kind: 'usage', used: 1800, size: 200000 },
    ]);
    expect(await updatesOf(d, 'counted', 'turn-usage')).toEqual([{ kind: 'turn-usage', inputTokens: 1500, outputTokens: 300, totalTokens: 1800 }]);
  });

  it('records the tokens of each turn apart, a follow-up included', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'two-turns', prompt: 'usage 100 10' });
    await d.waitForStatus('two-turns', 'completed');
    expect((await d.api('POST', '/tasks/two-turns/prompt', { prompt: 'usage 300 30' })).status).toBe(202);
    await d.waitForStatus('two-turns', 'completed');
    expect((await updatesOf(d, 'two-turns', 'turn-usage')).map((u) => 'totalTokens' in u && u.totalTokens)).toEqual([110, 330]);
  });

  it('records no turn tokens for a turn whose agent reports none', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'silent', prompt: 'say nothing to count' });
    await d.waitForStatus('silent', 'completed');
    expect(await updatesOf(d, 'silent', 'turn-usage')).toEqual([]);
  });
});
