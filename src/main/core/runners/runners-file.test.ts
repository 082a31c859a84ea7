// A desk with no runners.json runs with exactly the defaults the runners contract declares.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunnersConfig } from '../../../shared/runners';
import { loadRunnersConfig, RUNNERS_FILE } from './runners-file';

describe('runners.json', () => {
  let dataDir: string | undefined;
  const emptyDataDir = () => (dataDir = mkdtempSync(join(tmpdir(), 'desk-runners-file-')));
  afterEach(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives a desk without the file the same runners as an empty file', () => {
    const dir = emptyDataDir();
    const withoutFile = loadRunnersConfig(dir);
    writeFileSync(join(dir, RUNNERS_FILE), '{}');
    expect(withoutFile).toStrictEqual(loadRunnersConfig(dir));
    expect(withoutFile).toStrictEqual(RunnersConfig.parse({}));
  });

  it('stops with a line naming the file and the field when a runner is misspelled', () => {
    const dir = emptyDataDir();
    writeFileSync(join(dir, RUNNERS_FILE), JSON.stringify({ docker: { enabeld: true } }));
    expect(() => loadRunnersConfig(dir)).toThrow(expect.objectContaining({ code: 'runners_file_invalid' }));
  });
});
