import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { endpointsInConfig, endpointsInFiles } from './endpoint-files';

const home = mkdtempSync(join(tmpdir(), 'desk-endpoint-files-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('endpointsInConfig', () => {
  it('reads Codex\'s base_url from config.toml and OpenCode\'s baseURL from JSON, without credentials', () => {
    const toml = 'model_provider = "gateway"\n[model_providers.gateway]\nname = "Gateway"\nbase_url = "http://127.0.0.1:4001/v1"\nwire_api = "responses"\n';
    expect(endpointsInConfig(toml)).toEqual(['http://127.0.0.1:4001/v1']);
    const json = '{"provider":{"local":{"options":{"baseURL":"https://me:secret@llm.internal/v1"}}}}';
    expect(endpointsInConfig(json)).toEqual(['https://llm.internal/v1']);
  });

  it('names nothing for a file that names no endpoint', () => {
    expect(endpointsInConfig('model = "o4"\n')).toEqual([]);
  });
});

describe('endpointsInFiles', () => {
  it('reads the files under the agent\'s HOME or a variable of its environment, and skips those it cannot find', async () => {
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'config.toml'), 'base_url = "http://127.0.0.1:4001/v1"\n');
    const found = await endpointsInFiles(['$CODEX_HOME/config.toml', '~/.codex/config.toml', '~/missing.json'], { HOME: home });
    expect(found).toEqual(['~/.codex/config.toml base URL=http://127.0.0.1:4001/v1']);
    const viaVariable = await endpointsInFiles(['$CODEX_HOME/config.toml'], { HOME: '/nowhere', CODEX_HOME: join(home, '.codex') });
    expect(viaVariable).toEqual(['$CODEX_HOME/config.toml base URL=http://127.0.0.1:4001/v1']);
  });
});
