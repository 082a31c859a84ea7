// A desk in a process of its own, for the spec that kills it with SIGKILL: `node --import tsx desk-process.ts <json>`
// where the JSON names the repo, data dir, runners and (optionally) layers; prints `listening <url>` once it listens.
import { resolve } from 'node:path';
import { scriptedAgentSpec } from '../../src/main/core/agents/builtin-agents';
import { createCore } from '../../src/main/core/core';
import type { CoreConfig } from '../../src/main/core/core-config';

const options = JSON.parse(process.argv[2] ?? '{}') as { repo: string; dataDir: string; token: string; runners: CoreConfig['runners']; layers?: CoreConfig['layers'] };
const core = await createCore({
  repoPath: options.repo, dataDir: options.dataDir, token: options.token, concurrency: 2, defaultAgent: 'scripted',
  agents: {
    scripted: scriptedAgentSpec(resolve(import.meta.dirname, '../../src/scripted-agent/scripted-agent-main.ts')),
    builtins: [], custom: [], searchDirs: [], env: process.env,
  },
  allowedHosts: [], allowedOrigins: [], serverName: 'Runner spec desk', appVersion: '0.0.0-test', log: () => {},
  ...(options.runners !== undefined && { runners: options.runners }),
  ...(options.layers !== undefined && { layers: options.layers }),
});
const address = await core.listen(0, '127.0.0.1');
process.stdout.write(`listening http://127.0.0.1:${address.port}\n`);
