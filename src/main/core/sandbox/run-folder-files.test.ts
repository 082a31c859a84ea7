// A run's folder on a memory file system is made and read synchronously: what the desk reads back must still refuse
// what an agent could plant in its git dir.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diskFolderFiles, memoryFolderFiles } from './run-folder-files';

let root: string;
beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'desk-run-files-')); });
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe.each([['memory', memoryFolderFiles], ['disk', diskFolderFiles]])('a run\'s folder files (%s)', (_kind, files) => {
  it('makes nested folders with the mode asked for', async () => {
    await files.mkdir(join(root, 'run', 'git', 'refs'), { mode: 0o700 });
    expect(existsSync(join(root, 'run', 'git', 'refs'))).toBe(true);
  });

  it('copies a file that is there and passes over one that is not', async () => {
    writeFileSync(join(root, 'index'), 'staged');
    await files.copyIfThere(join(root, 'index'), join(root, 'copy'));
    await files.copyIfThere(join(root, 'MERGE_HEAD'), join(root, 'merge-copy'));
    expect(readFileSync(join(root, 'copy'), 'utf8')).toBe('staged');
    expect(existsSync(join(root, 'merge-copy'))).toBe(false);
  });

  it('reads a plain file back as text', async () => {
    await files.writeFile(join(root, 'HEAD'), 'ref: refs/heads/x\n');
    expect(await files.readPlainFile(join(root, 'HEAD'))).toBe('ref: refs/heads/x\n');
  });

  it('does not read through a link an agent planted to a file outside', async () => {
    writeFileSync(join(root, 'secret'), 'not for the desk to read as a ref');
    symlinkSync(join(root, 'secret'), join(root, 'HEAD'));
    expect(await files.readPlainFile(join(root, 'HEAD'))).toBeUndefined();
  });

  it.skipIf(process.platform === 'win32')('does not open a FIFO an agent planted, which would keep the desk waiting', async () => {
    execFileSync('mkfifo', [join(root, 'HEAD')]);
    expect(await files.readPlainFile(join(root, 'HEAD'))).toBeUndefined();
  });

  it('reads a file larger than a megabyte whole', async () => {
    const text = 'x'.repeat(3 * 1024 * 1024);
    await files.writeFile(join(root, 'packed-refs'), text);
    expect(await files.readPlainFile(join(root, 'packed-refs'))).toBe(text);
  });

  it('removes the folder whole', async () => {
    mkdirSync(join(root, 'run', 'git', 'objects'), { recursive: true });
    writeFileSync(join(root, 'run', 'git', 'HEAD'), 'x');
    await files.removeTree(join(root, 'run'));
    expect(existsSync(join(root, 'run'))).toBe(false);
  });
});
