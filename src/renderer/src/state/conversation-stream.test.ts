// The task stream read as a conversation: where one agent message ends and the next begins, and the person's
// own words (prompts, follow-ups, answers) as rows of their own.
import { describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../../shared/events';
import { appendToStream, createStream, type StreamItem } from './task-stream';
import { chunk, envelope, summary } from './test-events';

const said = (text: string, messageId: string): TaskEvent => ({ type: 'agent', update: { kind: 'message', role: 'agent', text, messageId } });
const streamOf = (...events: TaskEvent[]) => {
  const stream = createStream();
  appendToStream(stream, events.map((event, index) => envelope(index + 1, 't', event)));
  return stream.items;
};
const messages = (items: StreamItem[]) => items.flatMap((item) => (item.kind === 'message' ? [item.text] : []));
const question = { id: 'q1', taskId: 't', kind: 'permission' as const, prompt: 'Run npm install?', askedAt: '2025-01-01T10:00:00.000Z',
  options: [{ optionId: 'yes', name: 'Allow once', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }] };

describe('message boundaries', () => {
  it('starts a new message where the agent’s message id changes', () => {
    expect(messages(streamOf(said('readme ', 'm1'), said('badge', 'm1'), said('I need one detail', 'm2')))).toEqual(['readme badge', 'I need one detail']);
  });

  it('starts a new message after a tool call’s progress, not only after the call itself', () => {
    const items = streamOf(
      { type: 'agent', update: { kind: 'tool-call', toolCallId: 'c1', title: 'Read a' } },
      chunk('Reading.'),
      { type: 'agent', update: { kind: 'tool-call-update', toolCallId: 'c1', status: 'completed' } },
      chunk('Done reading.'),
    );
    expect(messages(items)).toEqual(['Reading.', 'Done reading.']);
  });

  it('starts a new message after a thought, a question and a turn’s end', () => {
    const items = streamOf(
      chunk('one'), chunk('thinking', 'thought'), chunk('two'),
      { type: 'question-opened', question }, chunk('three'),
      { type: 'task', task: summary('t', { status: 'completed' }) }, chunk('four'),
    );
    expect(messages(items)).toEqual(['one', 'two', 'three', 'four']);
  });

  it('keeps one message whole when the agent’s log lines or usage updates arrive in the middle', () => {
    const items = streamOf(
      chunk('Hello '),
      { type: 'log', level: 'info', source: 'agent', text: 'debug: tokens 12' },
      { type: 'agent', update: { kind: 'other', name: 'usage_update', data: {} } },
      chunk('world'),
    );
    expect(messages(items)).toEqual(['Hello world']);
  });

  it('joins chunks without ids to the message they follow, as agents that send none expect', () => {
    expect(messages(streamOf(said('Hel', 'm1'), chunk('lo')))).toEqual(['Hello']);
  });
});

describe('the person’s words', () => {
  it('shows the task’s prompt and each follow-up as the person’s, numbered by turn', () => {
    const items = streamOf(
      { type: 'prompt', turn: 1, text: 'Add a badge' },
      chunk('Added.'),
      { type: 'task', task: summary('t', { status: 'completed' }) },
      { type: 'prompt', turn: 2, text: 'Make it green' },
      chunk('Green now.'),
    );
    expect(items.filter((item) => item.kind === 'prompt' || item.kind === 'message').map((item) => (item.kind === 'prompt' ? `you ${item.turn}: ${item.text}` : `agent: ${item.kind === 'message' ? item.text : ''}`)))
      .toEqual(['you 1: Add a badge', 'agent: Added.', 'you 2: Make it green', 'agent: Green now.']);
  });

  it('marks a question answered and names the option the person chose', () => {
    const items = streamOf(
      { type: 'question-opened', question },
      { type: 'question-answered', questionId: 'q1', answer: { optionId: 'yes' }, answeredBy: 'person' },
    );
    expect(items).toEqual([
      expect.objectContaining({ kind: 'question', answered: true }),
      expect.objectContaining({ kind: 'answer', choice: 'Allow once' }),
    ]);
  });

  it('no longer labels a status change with the run’s attempt number', () => {
    const items = streamOf({ type: 'task', task: summary('t', { status: 'in-progress' }) });
    expect(items).toEqual([{ key: '1', kind: 'status', status: 'in-progress', review: 'pending' }]);
  });
});
