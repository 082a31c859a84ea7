// Reading one of git's small files (a ref, HEAD, a worktree's link files) with blocking calls: a few hundred bytes git
// has just written or read take microseconds that way, where each trip through the thread pool costs the desk ~40 µs
// of CPU (a readFile through promises ~90 µs, four trips; measured on the build machine). Never follows a link and
// never waits on a FIFO, so a file an agent planted cannot mislead the desk or hold its thread.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * A plain file's text (a link is not followed: one planted to mislead, or a legacy symbolic ref), `missing` when
 * nothing is there, `odd` for anything else: a directory, a FIFO, a file over `maxBytes`, an error reading it. (A file
 * holding exactly `missing` or `odd` reads as that state: no file git writes does.)
 */
export function readPlainSync(path: string, maxBytes: number): string | 'missing' | 'odd' {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO put in the place of a ref opens without waiting for a writer, and is refused below.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'odd';
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > maxBytes) return 'odd';
    const buffer = Buffer.alloc(info.size);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      length += read;
    }
    return buffer.toString('utf8', 0, length);
  } catch {
    return 'odd';
  } finally {
    closeSync(fd);
  }
}
