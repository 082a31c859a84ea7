// `npm run serve` as a spec starts it: the headless host from source on a temp repository, port chosen by the system.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import type { PolicyFile } from '../../../src/shared/governance';
import { makeRepo, rawRequest, writePolicy, type RawResponse } from '../../../src/main/core/test-support/desk-harness';
import { hostProcesses } from '../../../src/main/test-support/host-processes';

const SERVE = resolve(import.meta.dirname, '../../../src/main/serve.ts');
const TOKEN = 'e2e-token-0123456789abcdef';

export interface ServedDesk {
  url: string;
  /** The board's address, with the token in the fragment as `npm run serve` prints it. */
  boardUrl: string;
  repo: string;
  api(method: string, path: string, body?: unknown): Promise<RawResponse>;
  stop(): Promise<void>;
}

/**
 * `policy`: a governance policy written to the data dir before the desk starts; `agentsConfig`: its agents.json;
 * `env`: variables added to the desk's environment; `files`: more files committed in the repository; `dataDir`: the
 * desk's data dir (the spec's to remove), instead of one in the temp dir.
 */
export async function serveDesk(options: { policy?: z.input<typeof PolicyFile>; agentsConfig?: unknown; env?: Record<string, string>; files?: Record<string, string>; dataDir?: string } = {}): Promise<ServedDesk> {
  const root = mkdtempSync(join(tmpdir(), 'desk-e2e-'));
  const repo = makeRepo(root, { 'README.md': '# Demo project\n', 'src/app.js': 'export const greet = () => "hello";\n', ...options.files });
  const dataDir = options.dataDir ?? join(root, 'data');
  if (options.policy) writePolicy(dataDir, options.policy);
  if (options.agentsConfig !== undefined) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'agents.json'), JSON.stringify(options.agentsConfig));
  }
  const { child, url, output } = await hostProcesses(['--import', 'tsx', SERVE])
    .startHost(['--repo', repo, '--port', '0', '--data-dir', dataDir, '--token', TOKEN], options.env && { ...process.env, ...options.env });
  // Printed before the line startHost waits for.
  const boardUrl = /Board: (\S+)/.exec(output())?.[1];
  if (!boardUrl) throw new Error(`serve printed no board address: ${output()}`);
  return {
    url,
    boardUrl,
    repo,
    api: (method, path, body) => rawRequest(url, method, path, {
      authorization: `Bearer ${TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }),
    }, body === undefined ? undefined : JSON.stringify(body)),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
