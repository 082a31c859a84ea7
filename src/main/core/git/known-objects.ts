// Trees and commits the desk has read already, by their full names: an object never changes, so a layer's next commit
// on the same base reads its base trees and its branch's head commit from memory instead of starting git. Bounded by
// size, the least recently used forgotten first.
import type { GitObject } from './tree-object';

export interface KnownObjects {
  get(sha: string): GitObject | undefined;
  add(object: GitObject): void;
}

/** What the trees along a few changed paths of a large repository take, many times over. */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

export function createKnownObjects(maxBytes = DEFAULT_MAX_BYTES): KnownObjects {
  const objects = new Map<string, GitObject>();
  let bytes = 0;
  return {
    get(sha) {
      const object = objects.get(sha);
      if (object) {
        // Used again: to the back of the map, which is the order the oldest are dropped in.
        objects.delete(sha);
        objects.set(sha, object);
      }
      return object;
    },
    add(object) {
      if (objects.has(object.sha) || object.body.length > maxBytes / 4) return;
      objects.set(object.sha, object);
      bytes += object.body.length;
      for (const [sha, old] of objects) {
        if (bytes <= maxBytes) break;
        objects.delete(sha);
        bytes -= old.body.length;
      }
    },
  };
}
