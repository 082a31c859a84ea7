// A repository's worktree setup given in the desk's settings: used when the repository has no `.desk/config.json`,
// ignored (and the file shown) when it has one, kept across restarts.
import { describe, expect, it } from 'vitest';
import { git } from '../git/git-test-fixture';
import { desksPerTest, startDesk, taskEvents } from '../test-support/desk-harness';

const openDesk = desksPerTest();

const setupRan = async (desk: Parameters<typeof taskEvents>[0], id: string) =>
  (await taskEvents(desk, id)).flatMap((e) => (e.type === 'terminal-output' && e.terminalId === 'setup' ? [e.data] : [])).join('');

describe('setup from the desk\'s settings', () => {
  it('runs the settings\' setup in a repository without .desk/config.json, and keeps it across a restart', async () => {
    const desk = await openDesk();
    expect((await desk.api('GET', '/api/repos')).json.repos[0].setup).toEqual({ source: 'none' });
    const saved = await desk.api('PUT', '/api/repos/repo/setup', { setup: 'echo made by settings > from-setup.txt; echo settings setup ran' });
    expect(saved.status).toBe(200);
    expect(saved.json.setup).toMatchObject({ source: 'settings', config: { setup: expect.stringContaining('made by settings') } });

    await desk.api('POST', '/', { id: 'uses-settings', prompt: 'read from-setup.txt' });
    await desk.waitForStatus('uses-settings', 'completed');
    expect(await setupRan(desk, 'uses-settings')).toContain('settings setup ran');
    const commit = (await desk.api('GET', '/tasks/uses-settings')).json.commit;
    expect(git(desk.repo, 'show', `${commit}:from-setup.txt`)).toBe('made by settings');

    await desk.close();
    const again = await startDesk({ reuse: { root: desk.root, repo: desk.repo, dataDir: desk.dataDir } });
    try {
      expect((await again.api('GET', '/api/repos')).json.repos[0].setup.source).toBe('settings');
      expect((await again.api('PUT', '/api/repos/repo/setup', {})).json.setup).toEqual({ source: 'none' });
    } finally {
      await again.close();
    }
  });

  it('lets the repository\'s own .desk/config.json win, and shows its content', async () => {
    const desk = await openDesk({ files: { 'README.md': '# x\n', '.desk/config.json': JSON.stringify({ setup: 'echo file setup ran' }) } });
    const saved = await desk.api('PUT', '/api/repos/repo/setup', { setup: 'echo settings setup ran' });
    expect(saved.json.setup).toEqual({ source: 'file', config: { setup: 'echo file setup ran', copy: [] }, settings: { setup: 'echo settings setup ran', copy: [] } });
    await desk.api('POST', '/', { id: 'uses-file', prompt: 'say hi' });
    await desk.waitForStatus('uses-file', 'completed');
    const output = await setupRan(desk, 'uses-file');
    expect(output).toContain('file setup ran');
    expect(output).not.toContain('settings setup ran');
  });

  it('refuses a setup for a repository that is not open', async () => {
    const desk = await openDesk();
    expect((await desk.api('PUT', '/api/repos/nowhere/setup', { setup: 'true' })).json.code).toBe('unknown_repository');
  });
});
