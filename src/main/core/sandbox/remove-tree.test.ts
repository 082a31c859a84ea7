import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeSmallTreeNow, removeTree } from './remove-tree';

let root: string;
beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'desk-remove-tree-')); });
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('removing a sandbox dir', () => {
  it('removes nested directories and files, and a link without touching where it leads', async () => {
    const outside = join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'kept');
    const dir = join(root, 'sandbox');
    mkdirSync(join(dir, 'git', 'refs', 'heads'), { recursive: true });
    writeFileSync(join(dir, 'git', 'HEAD'), 'ref: refs/heads/x\n');
    writeFileSync(join(dir, 'git', 'refs', 'heads', 'x'), '0'.repeat(40));
    symlinkSync(outside, join(dir, 'link-to-outside'));
    await removeTree(dir);
    expect(existsSync(dir)).toBe(false);
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('kept');
  });

  it('removes a temp dir an agent filled with hundreds of files', async () => {
    const dir = join(root, 'sandbox');
    mkdirSync(join(dir, 'tmp', 'cache'), { recursive: true });
    for (let i = 0; i < 600; i++) writeFileSync(join(dir, 'tmp', 'cache', `f${i}`), '');
    await removeTree(dir);
    expect(existsSync(dir)).toBe(false);
  });

  it('is done for a dir that is not there', async () => {
    await expect(removeTree(join(root, 'never-made'))).resolves.toBeUndefined();
  });
});

describe('removing a run\'s folder on a memory file system', () => {
  it('removes a small tree before it returns, links left as links', async () => {
    const outside = join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'kept');
    const dir = join(root, 'run');
    mkdirSync(join(dir, 'git', 'refs', 'heads'), { recursive: true });
    writeFileSync(join(dir, 'git', 'HEAD'), 'ref: refs/heads/x\n');
    symlinkSync(outside, join(dir, 'git', 'objects'));
    const removing = removeSmallTreeNow(dir);
    expect(existsSync(dir)).toBe(false);
    await removing;
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('kept');
  });

  it('removes a tree larger than its budget all the same', async () => {
    const dir = join(root, 'run');
    mkdirSync(join(dir, 'git', 'objects', 'ab'), { recursive: true });
    for (let i = 0; i < 40; i++) writeFileSync(join(dir, 'git', 'objects', 'ab', `o${i}`), '');
    await removeSmallTreeNow(dir, 10);
    expect(existsSync(dir)).toBe(false);
  });

  it('is done for a folder that is not there', async () => {
    await expect(removeSmallTreeNow(join(root, 'never-made'))).resolves.toBeUndefined();
  });
});
