import { describe, expect, it } from 'vitest';
import { indexEntryCount, LAYER_MIN_FILES, runnerLayerChoice, wantsLayer } from './layer-choice';

describe('whether a worktree is a layer', () => {
  const facts = { mode: 'auto' as const, trackedFiles: 10, copies: 0, prepares: false };

  it('is a checkout for a small repository with nothing to copy or prepare', () => {
    expect(wantsLayer(facts)).toBe(false);
    expect(wantsLayer({ ...facts, trackedFiles: undefined })).toBe(false);
  });

  it('is a layer from the size on where a checkout costs more, or when each task would copy or prepare again', () => {
    expect(wantsLayer({ ...facts, trackedFiles: LAYER_MIN_FILES })).toBe(true);
    expect(wantsLayer({ ...facts, copies: 1 })).toBe(true);
    expect(wantsLayer({ ...facts, prepares: true })).toBe(true);
  });

  it('follows the setting over the facts', () => {
    expect(wantsLayer({ ...facts, mode: 'always' })).toBe(true);
    expect(wantsLayer({ ...facts, mode: 'never', copies: 3, trackedFiles: 1e6 })).toBe(false);
  });
});

describe("an index file's header", () => {
  it('gives the number of entries, and nothing for what is no index', () => {
    const header = Buffer.alloc(12);
    header.write('DIRC', 0, 'latin1');
    header.writeUInt32BE(2, 4);
    header.writeUInt32BE(51234, 8);
    expect(indexEntryCount(header)).toBe(51234);
    expect(indexEntryCount(Buffer.from('not an index'))).toBeUndefined();
    expect(indexEntryCount(Buffer.alloc(4))).toBeUndefined();
  });
});

describe('which runners give a task a layer', () => {
  it("gives one to a local task the desk's sandbox confines, and silently none to an unconfined one or a cluster task", () => {
    expect(runnerLayerChoice({ runner: 'local', confined: true, dockerHost: undefined })).toEqual({ layer: true });
    expect(runnerLayerChoice({ runner: 'local', confined: false, dockerHost: undefined })).toEqual({ layer: false });
    expect(runnerLayerChoice({ runner: 'cluster', confined: true, dockerHost: undefined })).toEqual({ layer: false });
  });

  it("gives one to a docker task whose daemon is on this machine's socket, the default one or a named one", () => {
    expect(runnerLayerChoice({ runner: 'docker', confined: true, dockerHost: undefined })).toEqual({ layer: true });
    expect(runnerLayerChoice({ runner: 'docker', confined: true, dockerHost: 'unix:///var/run/docker.sock' })).toEqual({ layer: true });
    expect(runnerLayerChoice({ runner: 'docker', confined: true, dockerHost: '' })).toEqual({ layer: true });
  });

  it('keeps a checkout for a docker task on a remote daemon, and says why', () => {
    for (const host of ['tcp://build-box:2375', 'https://build-box:2376', 'ssh://you@build-box']) {
      const choice = runnerLayerChoice({ runner: 'docker', confined: true, dockerHost: host });
      expect(choice).toEqual({ layer: false, why: expect.stringContaining(`daemon at ${host} is not on this machine`) });
    }
  });
});
