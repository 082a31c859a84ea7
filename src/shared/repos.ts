// Several repositories in one desk: the name each is known by (in `/r/<name>/` and on cards), what the board
// lists, and the bodies that open and close one.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { RepoConfig } from './repo-config';

/** A repository's name: one URL path segment a person can type (`/r/<name>/`). */
export const RepoName = lazySchema(() => z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit'));
export type RepoName = z.infer<typeof RepoName>;

/** Where a repository's worktree setup comes from: its own `.desk/config.json` (which wins), the desk's settings, or nowhere. */
export const RepoSetupSource = lazySchema(() => z.enum(['file', 'settings', 'none']));
export type RepoSetupSource = z.infer<typeof RepoSetupSource>;

/** One open repository as `GET /api/repos` lists it. */
export const RepoInfo = lazySchema(() => z.object({
  name: RepoName,
  /** The top level of its work tree. */
  path: z.string(),
  /** The repository `/` speaks for: the first one opened. It cannot be removed. */
  isDefault: z.boolean(),
  /** Tasks submitted to it start from this branch. */
  baseBranch: z.string(),
  /** Its own endpoint for clients, relative to the desk's address. */
  endpoint: z.string(),
  /** The setup in effect for its worktrees, and where it comes from. */
  setup: z.object({ source: RepoSetupSource, config: RepoConfig.optional(), settings: RepoConfig.optional() }),
}));
export type RepoInfo = z.infer<typeof RepoInfo>;

export const ReposResponse = lazySchema(() => z.object({ repos: z.array(RepoInfo) }));
export type ReposResponse = z.infer<typeof ReposResponse>;

/** `POST /api/repos` body: open another repository (any path inside it); `name` defaults to its folder's name. */
export const AddRepo = lazySchema(() => z.object({ path: z.string().min(1).max(4096), name: RepoName.optional() }).strict());
export type AddRepo = z.infer<typeof AddRepo>;

/** `PUT /api/repos/<name>/setup` body: the setup used when the repository has no `.desk/config.json`; `{}` clears it. */
export const RepoSetupSettings = RepoConfig;
export type RepoSetupSettings = z.infer<typeof RepoSetupSettings>;
