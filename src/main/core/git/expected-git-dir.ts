// The git dir `git worktree add` gives a new worktree: `<common dir>/worktrees/<the path's last part>`. Recorded with
// the worktree before it exists, so the record is written once per task; when git chose otherwise (the name was taken
// and git added a number, a git that writes relative links) the record is written again with what git wrote. Pure.
import { basename, join } from 'node:path';

export function expectedWorktreeGitDir(commonDir: string, worktreePath: string): string {
  return join(commonDir, 'worktrees', basename(worktreePath));
}
