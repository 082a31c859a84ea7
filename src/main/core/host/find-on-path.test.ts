// Where a program is on a PATH, looked up as a shell would, and remembered only while it is still there.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findOnPath, rememberedOnPath } from './find-on-path';

let root: string;
let first: string;
let second: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'desk-on-path-'));
  first = join(root, 'first');
  second = join(root, 'second');
  mkdirSync(first);
  mkdirSync(second);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const program = (dir: string, name: string, mode = 0o755) => {
  writeFileSync(join(dir, name), '#!/bin/sh\n');
  chmodSync(join(dir, name), mode);
  return join(dir, name);
};

describe.skipIf(process.platform === 'win32')('findOnPath', () => {
  it('takes the first directory holding an executable of that name, passing over one that is not executable', () => {
    program(first, 'tool', 0o644);
    const wanted = program(second, 'tool');
    expect(findOnPath('tool', [join(root, 'absent'), first, second].join(delimiter))).toBe(wanted);
    expect(findOnPath('other', [first, second].join(delimiter))).toBeUndefined();
  });

  it('remembered: gives the same answer, and a new one once the program moved', () => {
    const onPath = rememberedOnPath();
    const path = [first, second].join(delimiter);
    const before = program(second, 'tool');
    expect(onPath('tool', path)).toBe(before);
    expect(onPath('tool', path)).toBe(before);
    rmSync(before);
    expect(onPath('tool', path)).toBeUndefined();
    const after = program(first, 'tool');
    expect(onPath('tool', path)).toBe(after);
    // Another PATH is its own question.
    expect(onPath('tool', second)).toBeUndefined();
  });
});
