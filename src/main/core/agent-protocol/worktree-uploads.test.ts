// Where an upload may go in a task's worktree: inside it, never climbing out, never into .git, never through a link out.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUpload, uploadExists, uploadPathFor, writeUpload } from './worktree-uploads';

describe('uploadPathFor', () => {
  it('puts the file in the folder, with a leading slash meaning the worktree\'s top', () => {
    expect(uploadPathFor(undefined, 'a.txt')).toBe('a.txt');
    expect(uploadPathFor('', 'a.txt')).toBe('a.txt');
    expect(uploadPathFor('/python/code/', 'main.py')).toBe('python/code/main.py');
    expect(uploadPathFor('docs\\img', 'x.png')).toBe('docs/img/x.png');
    expect(uploadPathFor('a/./b/../c', 'x')).toBe('a/c/x');
  });

  it('keeps only the name of a file name with folders in it', () => {
    expect(uploadPathFor(undefined, '../../etc/passwd')).toBe('passwd');
    expect(uploadPathFor(undefined, 'C:\\Users\\me\\notes.txt')).toBe('notes.txt');
  });

  it('refuses a folder that climbs out, a path into .git, and names that are no file', () => {
    for (const [folder, name] of [['..', 'x'], ['a/../..', 'x'], ['.git', 'config'], ['a/.Git/hooks', 'x'], [undefined, '.git'], [undefined, '..'],
      [undefined, ''], [undefined, 'dir/'], ['a\u0000b', 'x'], [undefined, 'new\nline']] as const) {
      expect(() => uploadPathFor(folder, name), `${folder}/${name}`).toThrow(expect.objectContaining({ code: 'artifact_path' }));
    }
  });
});

describe('writing and reading uploads', () => {
  let root: string;
  let worktree: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'uploads-'));
    worktree = join(root, 'worktree');
    mkdirSync(worktree);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes into new folders and reads the same bytes back', async () => {
    const bytes = Buffer.from([0, 255, 10, 13]);
    await writeUpload(worktree, 'in/deep/x.bin', bytes);
    expect(readFileSync(join(worktree, 'in/deep/x.bin'))).toEqual(bytes);
    expect(await readUpload(worktree, 'in/deep/x.bin')).toEqual(bytes);
    expect(uploadExists(worktree, 'in/deep/x.bin')).toBe(true);
  });

  it('refuses a folder that is a link out of the worktree, and a file that is a link', async () => {
    mkdirSync(join(root, 'outside'));
    symlinkSync(join(root, 'outside'), join(worktree, 'out'));
    await expect(writeUpload(worktree, 'out/x.txt', Buffer.from('x'))).rejects.toThrow(expect.objectContaining({ code: 'artifact_path' }));
    writeFileSync(join(root, 'secret.txt'), 'secret');
    symlinkSync(join(root, 'secret.txt'), join(worktree, 'link.txt'));
    await expect(writeUpload(worktree, 'link.txt', Buffer.from('x'))).rejects.toThrow(expect.objectContaining({ code: 'artifact_path' }));
    expect(readFileSync(join(root, 'secret.txt'), 'utf8')).toBe('secret');
    expect(await readUpload(worktree, 'link.txt')).toBeUndefined();
  });

  it('refuses a path where a folder is in the way, and a worktree that is gone', async () => {
    mkdirSync(join(worktree, 'taken'));
    await expect(writeUpload(worktree, 'taken', Buffer.from('x'))).rejects.toThrow(expect.objectContaining({ code: 'artifact_path' }));
    await expect(writeUpload(join(root, 'gone'), 'x.txt', Buffer.from('x'))).rejects.toThrow(expect.objectContaining({ code: 'no_worktree' }));
  });
});
