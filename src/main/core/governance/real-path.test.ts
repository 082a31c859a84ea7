import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { realPathOf } from './real-path';

describe.skipIf(process.platform === 'win32')('realPathOf', () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'real-path-')));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const inside = join(base, 'inside');
  const outside = join(base, 'outside');
  mkdirSync(join(inside, 'dir'), { recursive: true });
  mkdirSync(join(outside, 'deep'), { recursive: true });
  writeFileSync(join(inside, 'file'), '');
  symlinkSync(outside, join(inside, 'out'));
  symlinkSync(join(outside, 'deep'), join(inside, 'deep-link'));
  symlinkSync(join(outside, 'not-yet'), join(inside, 'dangling'));

  it('names a new file in a directory that exists by the directory’s real path', () => {
    expect(realPathOf(join(inside, 'dir', 'new.txt'))).toBe(join(inside, 'dir', 'new.txt'));
    expect(realPathOf(join(inside, 'out', 'new.txt'))).toBe(join(outside, 'new.txt'));
  });

  it('climbs from a link’s target on `..`, not from the link', () => {
    expect(realPathOf(`${inside}/deep-link/../new.txt`)).toBe(join(outside, 'new.txt'));
    expect(realPathOf(`${inside}//dir/./new.txt`)).toBe(join(inside, 'dir', 'new.txt'));
  });

  it('follows a dangling link as the last name to where a write would land', () => {
    expect(realPathOf(join(inside, 'dangling'))).toBe(join(outside, 'not-yet'));
  });

  it('walks a path whose directories are missing too, links on the way followed', () => {
    expect(realPathOf(join(inside, 'out', 'a', 'b', 'new.txt'))).toBe(join(outside, 'a', 'b', 'new.txt'));
    expect(realPathOf(`${inside}/missing/../out/new.txt`)).toBe(join(outside, 'new.txt'));
    expect(realPathOf(join(inside, 'file', 'below'))).toBe(join(inside, 'file', 'below'));
  });
});
