import { describe, expect, it } from 'vitest';
import { layerUse, type LayerUseFacts } from './layer-use';

const target = '/data/worktrees/abc/fix-1234abcd';
const live: LayerUseFacts = { recordPath: target, link: { kind: 'known' }, setAside: false };

describe('whether a task layer is still its worktree', () => {
  it('is used while the desk keeps the worktree and git knows it', () => {
    expect(layerUse(target, live)).toEqual({ kind: 'used' });
  });

  it('is unused once the worktree folder is gone, whether or not the desk still keeps a record of it', () => {
    expect(layerUse(target, { ...live, link: { kind: 'gone' } })).toMatchObject({ kind: 'unused', why: expect.stringContaining(`${target} is gone`) });
    expect(layerUse(target, { ...live, recordPath: undefined, link: { kind: 'gone' } }).kind).toBe('unused');
    expect(layerUse(target, { ...live, recordPath: '/elsewhere', link: { kind: 'gone' } }).kind).toBe('unused');
  });

  it('is left alone when a retirement set its folder aside, since the layer holds what it could not commit', () => {
    expect(layerUse(target, { recordPath: undefined, link: { kind: 'gone' }, setAside: true })).toMatchObject({ kind: 'unsure', why: expect.stringContaining('set aside') });
  });

  it('is left alone when the worktree link is not the one the desk made', () => {
    expect(layerUse(target, { ...live, link: { kind: 'odd', why: 'it is a directory' } })).toMatchObject({ kind: 'unsure', why: expect.stringContaining('it is a directory') });
  });

  it('is left alone when git knows the worktree but the desk has no record of it, or records it elsewhere', () => {
    expect(layerUse(target, { ...live, recordPath: undefined })).toMatchObject({ kind: 'unsure', why: expect.stringContaining('no record') });
    expect(layerUse(target, { ...live, recordPath: '/elsewhere' })).toMatchObject({ kind: 'unsure', why: expect.stringContaining('/elsewhere') });
  });
});
