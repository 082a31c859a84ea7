import { describe, expect, it } from 'vitest';
import { deskMenuEntries } from './desk-menu';

describe('the tray and app menu', () => {
  it('show where the desk listens and which repository it works on', () => {
    const labels = deskMenuEntries({ endpoint: 'http://127.0.0.1:1337', repoPath: '/home/me/repo', busy: false }).map((entry) => ('label' in entry ? entry.label : '-'));
    expect(labels).toEqual(['Listening on http://127.0.0.1:1337', 'Repository: /home/me/repo', '-', 'Show Board', 'Copy Endpoint URL', 'Copy Token', 'Open Repository…', '-', 'Quit Assignment Desk']);
  });

  it('offer only quitting and opening a repository while the desk starts', () => {
    const enabled = deskMenuEntries({ busy: false }).filter((entry) => entry.kind === 'action' && entry.enabled).map((entry) => entry.kind === 'action' && entry.action);
    expect(enabled).toEqual(['open-repository', 'quit']);
  });

  it('let the person quit even while a repository is being opened', () => {
    const enabled = deskMenuEntries({ endpoint: 'http://127.0.0.1:1337', busy: true }).filter((entry) => entry.kind === 'action' && entry.enabled);
    expect(enabled.map((entry) => entry.kind === 'action' && entry.action)).toEqual(['quit']);
  });
});
