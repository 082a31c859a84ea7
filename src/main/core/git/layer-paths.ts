// Paths inside a layer as the layer code keeps them: relative to the top, `/`-separated, latin1 strings (one char per
// byte, as git's tree names are read), turned into the exact bytes the file system and git take.

/** `root` (a path of the desk's, UTF-8) joined with `relative` (latin1 bytes), as bytes for node:fs. */
export function onDisk(root: string, relative: string): Buffer {
  if (relative === '') return Buffer.from(root, 'utf8');
  return Buffer.concat([Buffer.from(root.endsWith('/') ? root : `${root}/`, 'utf8'), Buffer.from(relative, 'latin1')]);
}

/** `dir/name`, or `name` at the top. */
export function childPath(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}
