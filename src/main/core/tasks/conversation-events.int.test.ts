// The conversation as the desk stores it: the person's prompts and the agent's separate messages, in order,
// so a reload shows who said what. Real SQLite, git and scripted agent.
import { describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../../shared/events';
import { desksPerTest, taskEvents } from '../test-support/desk-harness';

const openDesk = desksPerTest();

/** Who said what, in order: `you N: …` for a person's prompt of turn N, `agent: …` for each stored message. */
const conversation = (events: TaskEvent[]) => events.flatMap((event) => {
  if (event.type === 'prompt') return [`you ${event.turn}: ${event.text}`];
  if (event.type === 'agent' && event.update.kind === 'message' && event.update.role === 'agent') return [`agent: ${event.update.text}`];
  return [];
});

describe('the stored conversation', () => {
  it('holds the prompt, each of the agent’s messages apart, and the person’s follow-up', async () => {
    const desk = await openDesk();
    await desk.api('POST', '/', { id: 'badge', prompt: 'say Added the readme badge\nsay I need one detail' });
    await desk.waitForStatus('badge', 'completed');
    expect((await desk.api('POST', '/tasks/badge/prompt', { prompt: 'say Green it is' })).status).toBeLessThan(300);
    await desk.waitForStatus('badge', 'in-progress');
    await desk.waitForStatus('badge', 'completed');

    const said = conversation(await taskEvents(desk, 'badge'));
    const expected = [
      'you 1: say Added the readme badge\nsay I need one detail',
      'agent: Added the readme badge',
      'agent: I need one detail',
      'you 2: say Green it is',
      'agent: Green it is',
    ];
    // The scripted agent cannot resume its session, so it also reads out the context the desk gives turn 2.
    expect(said.filter((line) => expected.includes(line))).toEqual(expected);
    expect(said.filter((line) => line.startsWith('you '))).toHaveLength(2);
  });
});
