// A task's dev server: how a repository names it (`.desk/config.json` `devServer`) and its state as the board sees it.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

/** The repository's dev server: a shell command run in the task's worktree, told its port in `portEnv`. */
export const DevServerConfig = lazySchema(() => z.strictObject({
  command: z.string().min(1).max(4000),
  /** The environment variable that carries the port the desk chose (e.g. `PORT`). */
  portEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, 'must be an environment variable\'s name').default('PORT'),
}));
export type DevServerConfig = z.infer<typeof DevServerConfig>;

/** `starting` until the port answers over HTTP, `running` once it does, `exited` after it ended or was stopped. */
export const DevServerPhase = lazySchema(() => z.enum(['starting', 'running', 'exited']));
export type DevServerPhase = z.infer<typeof DevServerPhase>;

/** A task's dev server: its port on the host's 127.0.0.1, the link once it answers, the terminal showing its output. */
export const DevServerState = lazySchema(() => z.object({
  state: DevServerPhase,
  port: z.number().int().min(1).max(65535),
  /** `http://127.0.0.1:<port>/`, present once the port answered. */
  url: z.string().optional(),
  /** The terminal in the task's stream that shows its output. */
  terminalId: z.string(),
  /** Present when it runs without the OS sandbox (none on this machine, or the agent's policy turns it off). */
  unsandboxed: z.literal(true).optional(),
  /** How it ended, once exited. */
  exitCode: z.number().int().nullable().optional(),
  signal: z.string().nullable().optional(),
}));
export type DevServerState = z.infer<typeof DevServerState>;

/** `GET` answers the state, or `null` when the task's dev server never started. */
export const DevServerAnswer = lazySchema(() => z.object({ devServer: DevServerState.nullable() }));
export type DevServerAnswer = z.infer<typeof DevServerAnswer>;
