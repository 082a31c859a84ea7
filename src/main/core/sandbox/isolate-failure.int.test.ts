// A run whose sandbox cannot be finished (here: the agent's state refused after the MCP relay was opened) leaves
// nothing of itself: the relay it was given is closed, and its folders, in memory and on the disk, are gone. A real
// repository and worktree, the real run folders; the relay and the state layers are the caller's, seen from outside.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedAgentSpec } from '../agents/builtin-agents';
import { runFolderRootsFor } from './run-folders';
import type { StateLayers } from './state-layers';
import { createTaskSandbox } from './task-sandbox';
import { sandboxForTests } from './test-support/sandbox-for-tests';

const { status, skip } = await sandboxForTests();
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe.skipIf(skip !== false)('a sandbox that cannot be finished', () => {
  it('closes the relay it opened and removes the run\'s folders, then says why', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'isolate-failure-')));
    roots.push(root);
    const repo = join(root, 'repo');
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    writeFileSync(join(repo, 'README.md'), '# Fixture\n');
    execFileSync('git', ['-C', repo, 'add', '-A']);
    execFileSync('git', ['-C', repo, '-c', 'user.name=T', '-c', 'user.email=t@example.test', 'commit', '-qm', 'first']);
    const worktree = join(root, 'worktree');
    execFileSync('git', ['-C', repo, 'worktree', 'add', '-q', '-b', 'task', worktree]);
    const dataDir = join(root, 'data');
    const runFolders = runFolderRootsFor(dataDir, { env: process.env, uid: process.getuid?.() });
    roots.push(runFolders.folders);

    const relayDirs: string[] = [];
    let relayClosed = 0;
    const refusingState: StateLayers = {
      open: async () => { throw new Error('the agent\'s state could not be layered'); },
      openHome: async () => { throw new Error('not used'); },
      remove: async () => {},
    };
    const sandbox = createTaskSandbox({
      status,
      dataDir,
      runFolders,
      gitCommonDir: realpathSync(join(repo, '.git')),
      home: join(root, 'home'),
      policyFor: () => ({ sandbox: 'required', network: [], readablePaths: [], hiddenPaths: [] }),
      mcpRelay: async ({ dir }) => {
        relayDirs.push(dir);
        return { bridgeFlags: [], bindPaths: [], close: async () => { relayClosed += 1; } };
      },
      stateLayers: refusingState,
    });
    await sandbox.sweep();

    const isolating = sandbox.isolate({ taskId: 'task', worktree, agent: scriptedAgentSpec('/opt/desk/scripted-agent.js'), log: () => {}, mcpUrl: 'http://127.0.0.1:4567/mcp' });
    await expect(isolating).rejects.toThrow("the agent's state could not be layered");
    // The relay was opened in the run's folder, and closed once; the run's folder and its temp dir are gone.
    expect(relayDirs).toHaveLength(1);
    expect(relayClosed).toBe(1);
    const runFolder = dirname(relayDirs[0] as string);
    expect(existsSync(runFolder)).toBe(false);
    expect(existsSync(join(runFolders.temp, basename(runFolder)))).toBe(false);
    sandbox.close();
  });
});
