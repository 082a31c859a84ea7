import { describe, expect, it } from 'vitest';
import { agentFailureMessage, isBareError, logTail, modelEndpoints } from './agent-trouble';

describe('isBareError', () => {
  it('takes JSON-RPC\'s own names and the usual blanks for no message at all', () => {
    for (const message of ['Internal error', 'internal error.', '', 'Unknown error', 'Invalid params']) expect(isBareError({ code: -32603, message }), message).toBe(true);
  });

  it('keeps a message that says something as the agent said it', () => {
    expect(isBareError({ code: -32603, message: 'Query closed before response received' })).toBe(false);
    expect(agentFailureMessage({ code: -32603, message: 'Query closed before response received' }, { recentLog: 'noise', endpoints: [] }))
      .toBe('The agent failed: Query closed before response received.');
  });
});

describe('agentFailureMessage', () => {
  it('names the HTTP status an agent gives as its error code (Gemini CLI) when its words leave it out', () => {
    expect(agentFailureMessage({ code: 429, message: 'Resource has been exhausted (e.g. check quota).' }, { recentLog: '', endpoints: [] }))
      .toBe('The agent failed (HTTP 429): Resource has been exhausted (e.g. check quota).');
    expect(agentFailureMessage({ code: 500, message: 'got status: 500 Internal' }, { recentLog: '', endpoints: [] })).toBe('The agent failed: got status: 500 Internal.');
  });

  it('gives the cause the error\'s data carries', () => {
    expect(agentFailureMessage({ code: -32603, message: 'Internal error', data: { details: 'Query closed before response received' } }, { recentLog: '', endpoints: [] }))
      .toContain('Its error says: Query closed before response received');
  });
});

describe('modelEndpoints', () => {
  it('lists the base URLs the agent was given, without user or password', () => {
    expect(modelEndpoints({ PATH: '/bin', OPENAI_BASE_URL: 'https://key:secret@gateway.example/v1', ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000' }))
      .toEqual(['ANTHROPIC_BASE_URL=http://127.0.0.1:4000', 'OPENAI_BASE_URL=https://gateway.example/v1']);
  });
});

describe('logTail', () => {
  it('keeps the last five lines that say something, each shortened', () => {
    const lines = ['one', '', 'two', 'three', 'four', 'five', 'six', 'x'.repeat(400)].join('\n');
    const tail = logTail(lines);
    expect(tail.slice(0, 4)).toEqual(['three', 'four', 'five', 'six']);
    expect(tail[4]).toHaveLength(301);
  });
});
