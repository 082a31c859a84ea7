// The changed files as a tree of folders, for the review's file list. Pure; a folder with a single folder inside
// is shown as one ("src/main/core"), as code review tools do, so deep paths do not cost a row per level.

export interface TreeFile<F> { kind: 'file'; name: string; file: F }
export interface TreeFolder<F> { kind: 'folder'; name: string; path: string; children: TreeNode<F>[] }
export type TreeNode<F> = TreeFile<F> | TreeFolder<F>;

/** Folders first, then files, each by name; `files` keep their objects. */
export function fileTree<F extends { path: string }>(files: readonly F[]): TreeNode<F>[] {
  const root: TreeFolder<F> = { kind: 'folder', name: '', path: '', children: [] };
  for (const file of files) {
    const parts = file.path.split('/');
    let folder = root;
    for (const part of parts.slice(0, -1)) {
      let next = folder.children.find((child): child is TreeFolder<F> => child.kind === 'folder' && child.name === part);
      if (!next) {
        next = { kind: 'folder', name: part, path: folder.path ? `${folder.path}/${part}` : part, children: [] };
        folder.children.push(next);
      }
      folder = next;
    }
    folder.children.push({ kind: 'file', name: parts.at(-1) as string, file });
  }
  return root.children.map(compact).sort(byKindAndName);
}

function compact<F>(node: TreeNode<F>): TreeNode<F> {
  if (node.kind === 'file') return node;
  let folder = node;
  while (folder.children.length === 1 && folder.children[0]?.kind === 'folder') {
    const only = folder.children[0];
    folder = { ...only, name: `${folder.name}/${only.name}` };
  }
  return { ...folder, children: folder.children.map(compact).sort(byKindAndName) };
}

function byKindAndName<F>(a: TreeNode<F>, b: TreeNode<F>): number {
  if (a.kind !== b.kind) return a.kind === 'folder' ? -1 : 1;
  return a.name.localeCompare(b.name);
}

/** The files in the order the tree shows them (for "next file"). */
export function filesInTreeOrder<F>(nodes: readonly TreeNode<F>[]): F[] {
  return nodes.flatMap((node) => (node.kind === 'file' ? [node.file] : filesInTreeOrder(node.children)));
}

/** The files that need attention (`attention` set by the desk) first, each group in the order given. */
export function attentionFirst<F extends { attention?: unknown }>(files: readonly F[]): F[] {
  return [...files.filter((file) => file.attention !== undefined), ...files.filter((file) => file.attention === undefined)];
}
