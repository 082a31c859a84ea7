// An agent that ends its turn normally after its model failed (Codex) is recognised, with its reason.
import { describe, expect, it } from 'vitest';
import type { AgentUpdate } from '../../../shared/events';
import { modelFailureMessage, retryNotice, watchTurnFailure } from './in-band-trouble';

const info = (codex: Record<string, unknown>): AgentUpdate => ({ kind: 'other', name: 'session_info_update', data: { sessionUpdate: 'session_info_update', _meta: { codex } } });
const says = (text: string): AgentUpdate => ({ kind: 'message', role: 'agent', text });

describe('watchTurnFailure', () => {
  it('gives Codex\'s last words as the reason once it reports a system error', () => {
    const watch = watchTurnFailure();
    for (const update of [
      says('Warning: Model metadata for `m` not found.\n\n'),
      info({ error: { message: 'Reconnecting... 1/1', additionalDetails: 'stream disconnected before completion', willRetry: true } }),
      info({ threadStatus: { type: 'systemError' } }),
      says('exceeded retry limit, last status: 429 Too Many Requests\n\n'),
    ]) watch.see(update);
    expect(watch.failure()).toBe('exceeded retry limit, last status: 429 Too Many Requests');
  });

  it('keeps only the end of what the agent said, however much it says in a turn', () => {
    const watch = watchTurnFailure();
    for (let chunk = 0; chunk < 1000; chunk++) watch.see(says('x'.repeat(1000)));
    watch.see(info({ threadStatus: { type: 'systemError' } }));
    expect(watch.failure()!.length).toBeLessThanOrEqual(4096);
  });

  it('falls back to the retry notice when Codex said nothing after it', () => {
    const watch = watchTurnFailure();
    watch.see(info({ error: { message: 'Reconnecting... 1/1', additionalDetails: 'stream disconnected before completion', willRetry: true } }));
    watch.see(info({ threadStatus: { type: 'systemError' } }));
    expect(watch.failure()).toBe('stream disconnected before completion');
  });

  it('finds no failure in a turn that retried and then went well', () => {
    const watch = watchTurnFailure();
    watch.see(info({ error: { message: 'Reconnecting... 1/5', additionalDetails: 'stream disconnected', willRetry: true } }));
    watch.see(info({ threadStatus: { type: 'active' } }));
    watch.see(says('Done.'));
    watch.see(info({ threadStatus: { type: 'idle' } }));
    expect(watch.failure()).toBeUndefined();
  });
});

describe('modelFailureMessage', () => {
  it('names the agent, its reason and the endpoint it was pointed at', () => {
    expect(modelFailureMessage('Codex', 'exceeded retry limit, last status: 429 Too Many Requests', ['OPENAI_BASE_URL=http://127.0.0.1:4000/v1']))
      .toMatch(/^Codex ended its turn because its model failed: exceeded retry limit, last status: 429 Too Many Requests\.\nIt was pointed at OPENAI_BASE_URL=http:\/\/127\.0\.0\.1:4000\/v1: check/);
  });

  it('says where the endpoint is configured when no variable names it', () => {
    expect(modelFailureMessage('Codex', 'high demand.', [])).toContain('~/.codex/config.toml');
  });
});

describe('retryNotice', () => {
  it('turns Codex\'s retry report into a line naming the retry, its cause and where the endpoint is set', () => {
    const line = retryNotice('Codex', info({ error: { message: 'Reconnecting... waiting for network', additionalDetails: 'Connection failed: error sending request', willRetry: true } }));
    expect(line).toMatch(/^Codex reports trouble reaching its model: Reconnecting\.\.\. waiting for network \(Connection failed: error sending request\)\. /);
    expect(line).toContain('~/.codex/config.toml');
  });

  it('has nothing to say about other updates', () => {
    expect(retryNotice('Codex', info({ threadStatus: { type: 'active' } }))).toBeUndefined();
    expect(retryNotice('Codex', says('Reconnecting...'))).toBeUndefined();
  });
});
