// @vitest-environment happy-dom
// The task card as a person sees it on the board: what it says, its dependency badges, and what clicking does.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deskStore } from '../state/store';
import { detailOf, resetDesk, seedDesk } from '../state/test-desk';
import { summary } from '../state/test-events';
import { Notices } from '../ui/notices';
import { TaskCard } from './task-card';

const schema = summary('schema', { title: 'Add the invoices table', agent: 'claude-code', status: 'completed', review: 'pending' });
const failed = summary('importer', { title: 'Import last year’s invoices', status: 'error' });
const api = summary('api', {
  title: 'Expose invoices over HTTP', agent: 'codex', status: 'queued', dependencies: ['schema', 'importer'], unsandboxed: true,
});
const asking = summary('ask', {
  title: 'Rename the billing module', status: 'awaiting-input',
  openQuestions: [{ id: 'q1', taskId: 'ask', kind: 'permission', prompt: 'Run npm install', askedAt: '2025-01-01T10:00:06.000Z', options: [] }],
});

afterEach(resetDesk);

describe('task card', () => {
  it('shows the task’s title, id and agent', () => {
    seedDesk([schema]);
    render(<TaskCard id="schema" />);
    const card = screen.getByRole('article', { name: 'Task schema' });
    expect(within(card).getByRole('heading', { name: 'Add the invoices table' })).toBeTruthy();
    expect(within(card).getByText('schema')).toBeTruthy();
    expect(within(card).getByText('claude-code')).toBeTruthy();
  });

  it('names the files that run on your machine on a card in review, each with its reason, and not once approved', () => {
    const files = ['.husky/pre-commit', 'CLAUDE.md', 'package.json', '.envrc'].map((path) => ({ path, reason: `why ${path}` }));
    seedDesk([summary('hooked', { status: 'completed', review: 'pending', attention: files }), summary('merged', { status: 'completed', review: 'approved', attention: files })]);
    render(<><TaskCard id="hooked" /><TaskCard id="merged" /></>);
    const note = within(screen.getByRole('article', { name: 'Task hooked' })).getByRole('note', { name: 'Files that run on your machine' });
    expect(within(note).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['.husky/pre-commit', 'CLAUDE.md', 'package.json', '+1 more']);
    expect(within(note).getAllByRole('listitem')[0]?.getAttribute('title')).toBe('why .husky/pre-commit');
    expect(within(screen.getByRole('article', { name: 'Task merged' })).queryByRole('note', { name: 'Files that run on your machine' })).toBeNull();
  });

  it("shows the agent's own name and version where the desk knows it only as ad-hoc", () => {
    seedDesk([summary('adhoc', { agent: 'ad-hoc', status: 'in-progress', agentInfo: { name: 'claude-code-acp', title: 'Claude Code', version: '0.16.2' } })]);
    render(<TaskCard id="adhoc" />);
    const card = screen.getByRole('article', { name: 'Task adhoc' });
    expect(within(card).getByText('Claude Code 0.16.2')).toBeTruthy();
    expect(within(card).queryByText('ad-hoc')).toBeNull();
  });

  it("shows what the agent did last with the worktree's paths relative to it", () => {
    seedDesk([summary('wrote', { status: 'in-progress', lastActivity: { kind: 'tool', text: 'Write /home/me/.local/share/desk/worktrees/3f2a/wrote-1/hello.txt' } })]);
    render(<TaskCard id="wrote" />);
    expect(within(screen.getByRole('article', { name: 'Task wrote' })).getByText('Write hello.txt')).toBeTruthy();
  });

  it('says when the agent waits for an answer, and not otherwise', () => {
    seedDesk([asking, schema]);
    render(<><TaskCard id="ask" /><TaskCard id="schema" /></>);
    expect(within(screen.getByRole('article', { name: 'Task ask' })).getByText('Needs your answer')).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Task schema' })).queryByText('Needs your answer')).toBeNull();
  });

  it('marks a task whose agent runs without the sandbox', () => {
    seedDesk([api, schema, failed]);
    render(<><TaskCard id="api" /><TaskCard id="schema" /></>);
    expect(within(screen.getByRole('article', { name: 'Task api' })).getByText('unsandboxed')).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Task schema' })).queryByText('unsandboxed')).toBeNull();
  });

  it('lists what a queued task waits for, saying which one is blocked', () => {
    seedDesk([api, schema, failed]);
    render(<TaskCard id="api" />);
    const badges = within(screen.getByRole('list', { name: 'Dependencies' })).getAllByRole('listitem');
    expect(badges.map((badge) => badge.textContent)).toEqual([
      expect.stringContaining('waits for schema'),
      expect.stringContaining('waits for importer'),
    ]);
    expect(badges[0]?.textContent).toContain('(done)');
    expect(badges[1]?.textContent).toContain('blocked');
  });

  it('removes a dependency through the API without opening the task', async () => {
    const desk = seedDesk([api, schema, failed]);
    const removed = vi.spyOn(desk, 'removeDependency').mockResolvedValue(detailOf({ ...api, dependencies: ['schema'] }));
    render(<><TaskCard id="api" /><Notices /></>);
    await userEvent.click(screen.getByRole('button', { name: 'Remove dependency on importer' }));
    expect(removed).toHaveBeenCalledWith('api', 'importer');
    expect(await screen.findByText('Task api no longer waits for importer.')).toBeTruthy();
    expect(deskStore.getState().openTaskId).toBeUndefined();
  });

  it('offers no way to change the dependencies of a task that has started', () => {
    seedDesk([summary('run', { status: 'in-progress', dependencies: ['schema'] }), schema]);
    render(<TaskCard id="run" />);
    expect(screen.getByText('waits for schema')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove dependency on schema' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Wait for…' })).toBeNull();
  });

  it('opens the task when clicked, or with Enter', async () => {
    const desk = seedDesk([schema, failed]);
    vi.spyOn(desk, 'task').mockImplementation(async (id) => detailOf(id === 'schema' ? schema : failed));
    vi.spyOn(desk, 'taskEvents').mockResolvedValue({ events: [] });
    render(<><TaskCard id="schema" /><TaskCard id="importer" /></>);
    await userEvent.click(screen.getByRole('heading', { name: 'Add the invoices table' }));
    expect(deskStore.getState().openTaskId).toBe('schema');
    screen.getByRole('article', { name: 'Task importer' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(deskStore.getState().openTaskId).toBe('importer');
  });

  it('says how long the agent worked once done, and what it did last, from the core', () => {
    seedDesk([summary('done', {
      status: 'completed', startedAt: '2025-01-01T10:00:01.000Z', finishedAt: '2025-01-01T10:03:54.000Z', workingMs: 1_200,
      lastActivity: { kind: 'message', text: 'Added the badge.' },
    })]);
    render(<TaskCard id="done" />);
    const card = within(screen.getByRole('article', { name: 'Task done' }));
    expect(card.getByText('took 1s')).toBeTruthy();
    expect(card.getByText('Added the badge.')).toBeTruthy();
  });

  it('shows nothing for time before a task ever started', () => {
    seedDesk([summary('waiting')]);
    render(<TaskCard id="waiting" />);
    expect(screen.getByRole('article', { name: 'Task waiting' }).querySelector('.elapsed')).toBeNull();
  });

  it('shows who proposed a task and, while the proposal waits, approves it with one click', async () => {
    const proposed = summary('docs', { title: 'Write the guide', status: 'queued', proposedBy: 'planner', proposal: 'pending' });
    const accepted = summary('lint', { title: 'Add a lint step', status: 'queued', proposedBy: 'planner', proposal: 'accepted' });
    const desk = seedDesk([proposed, accepted]);
    const approve = vi.spyOn(desk, 'acceptProposal').mockResolvedValue({ ...proposed, proposal: 'accepted' });
    render(<><TaskCard id="docs" /><TaskCard id="lint" /><Notices /></>);
    const lint = screen.getByRole('article', { name: 'Task lint' });
    expect(within(lint).getByText('Proposed by planner')).toBeTruthy();
    expect(within(lint).queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(within(screen.getByRole('article', { name: 'Task docs' })).getByRole('button', { name: 'Dismiss proposed task docs' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Approve proposed task docs' }));
    expect(approve).toHaveBeenCalledWith('docs');
    expect(await screen.findByText('Accepted docs: it is queued and runs when its turn comes.')).toBeTruthy();
    expect(deskStore.getState().openTaskId).toBeUndefined();
  });
});
