// The name a repository is known by in a desk (`/r/<name>/`, on cards): its folder's name unless a person chose
// one. Pure.
import { basename } from 'node:path';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A usable name made from a folder name: characters a URL segment cannot hold plainly become "-". */
export function nameFromFolder(root: string): string {
  const cleaned = basename(root).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
  return NAME.test(cleaned) ? cleaned : 'repo';
}

/** `wanted`, or `wanted-2`, `wanted-3`… when another repository already has it. */
export function freeName(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n += 1) {
    const candidate = `${wanted.slice(0, 60)}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
