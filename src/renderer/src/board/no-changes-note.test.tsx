// @vitest-environment happy-dom
// A card whose agent changed nothing says "No changes" and what failed, never a plain completed card.
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { resetDesk, seedDesk } from '../state/test-desk';
import { summary } from '../state/test-events';
import { TaskCard } from './task-card';

afterEach(resetDesk);

const summaryText = 'Codex ended its turn without changing any file, so nothing was committed. This step failed: Run npm test (bwrap: execvp codex-linux-sandbox: No such file or directory).';

describe('a card whose agent changed nothing', () => {
  it('says "No changes" with how many steps failed, the whole summary on hover', () => {
    seedDesk([summary('idle', { status: 'completed', noChanges: { summary: summaryText, failed: [{ title: 'Run npm test', detail: 'bwrap: execvp codex-linux-sandbox: No such file or directory' }] } })]);
    render(<TaskCard id="idle" />);
    const note = within(screen.getByRole('article', { name: 'Task idle' })).getByText('No changes · 1 failed');
    expect(note.getAttribute('title')).toBe(summaryText);
  });

  it('says nothing of the kind on a card whose agent committed its work', () => {
    seedDesk([summary('done', { status: 'completed', commit: 'abc123' })]);
    render(<TaskCard id="done" />);
    expect(within(screen.getByRole('article', { name: 'Task done' })).queryByText(/No changes/)).toBeNull();
  });
});
