// An agent's error answer in a person's words: the cause from its data, and its log when it said no more than "Internal error".
import { describe, expect, it } from 'vitest';
import { agentFailureMessage, causeInData } from './agent-failure-cause';

describe('agentFailureMessage', () => {
  it('adds the cause a bare internal error carries in its data, the end of the agent\'s log, and where to look', () => {
    const message = agentFailureMessage('Internal error', { details: 'Query closed before response received' }, 'starting\nError: EACCES: permission denied, mkdir \'/home/p/.claude\'\n');
    expect(message).toBe('Internal error: Query closed before response received. Its log ends: starting | Error: EACCES: permission denied, mkdir \'/home/p/.claude\'. '
      + 'The usual causes are a login it lacks, a model endpoint it cannot reach (see the policy\'s network) or a state file it cannot write; the task\'s activity has its whole log.');
  });

  it('says so when a bare error comes with an empty log', () => {
    expect(agentFailureMessage('Internal error', undefined, '')).toMatch(/^Internal error\. It wrote nothing to its log\. The usual causes/);
  });

  it('leaves an error that says what went wrong as it is, with its data\'s cause', () => {
    expect(agentFailureMessage('Rate limited by the model', { details: 'retry after 30 s' }, 'noise')).toBe('Rate limited by the model: retry after 30 s');
  });

  it('does not repeat a cause the message already holds', () => {
    expect(agentFailureMessage('Model not found: gpt-x', { message: 'Model not found: gpt-x' }, '')).toBe('Model not found: gpt-x');
  });
});

describe('causeInData', () => {
  it('reads the cause from a string or the usual keys, and nothing from other shapes', () => {
    expect([causeInData('boom'), causeInData({ message: 'm' }), causeInData({ reason: 'r' }), causeInData([1]), causeInData({ code: 3 })]).toEqual(['boom', 'm', 'r', undefined, undefined]);
  });
});
