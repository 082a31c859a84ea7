// Whether a new task's worktree is a layer over a snapshot of its base or a checkout of its own (issue 41). A layer's
// start and commit cost a few fixed steps (a namespace, a mount, a snapshot's lease) where a checkout costs what the
// repository holds: on a small repository the checkout is the cheaper, on a large one, or one whose ignored folders
// (`copy`) or preparation (`prepare`) each task would otherwise pay for again, the layer is. Pure: the caller reads the facts.

/** `auto`: as the facts say; `always` / `never`: every worktree a layer / a checkout (a setting, tests). */
export type LayerMode = 'auto' | 'always' | 'never';

/** From this many tracked files on, a checkout costs more than a layer's fixed steps (bench/layers.ts). */
export const LAYER_MIN_FILES = 2000;

export interface LayerFacts {
  mode: LayerMode;
  /** Files the person's index lists (a stand-in for the base's), undefined when it could not be read. */
  trackedFiles: number | undefined;
  /** The repository's `copy` globs and `prepare` command (`.desk/config.json`). */
  copies: number;
  prepares: boolean;
}

export function wantsLayer(facts: LayerFacts): boolean {
  if (facts.mode !== 'auto') return facts.mode === 'always';
  return facts.copies > 0 || facts.prepares || (facts.trackedFiles ?? 0) >= LAYER_MIN_FILES;
}

/** The number of entries a git index file says it holds (its header: signature, version, count), or undefined. */
export function indexEntryCount(header: Buffer): number | undefined {
  if (header.length < 12 || header.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  return header.readUInt32BE(8);
}
