// The sandbox contract: whether agents run confined on this machine, and how a policy asks for it.
import { z } from 'zod';
import { LimitsStatus } from './limits';

/**
 * `auto`: confine agents whenever this machine can (the default); `required`: refuse to start an agent
 * that cannot be confined; `off`: run agents as plain processes of the desk (for debugging only).
 */
export const SandboxMode = z.enum(['auto', 'required', 'off']);
export type SandboxMode = z.infer<typeof SandboxMode>;

/** What confines agents here: bubblewrap on Linux, or nothing. */
export const SandboxKind = z.enum(['bubblewrap', 'none']);
export type SandboxKind = z.infer<typeof SandboxKind>;

/** The machine's answer, found once at start: shown at start, in Settings and on every unconfined card. */
export const SandboxStatus = z.object({
  kind: SandboxKind,
  available: z.boolean(),
  /** e.g. "bubblewrap 0.8.0". */
  version: z.string().optional(),
  /** The program that confines agents. */
  path: z.string().optional(),
  /** Why agents cannot be confined, when they cannot. */
  reason: z.string().optional(),
  /** What a person can do about it. */
  fix: z.string().optional(),
  /** How each task's memory, processes and CPUs are bounded on this machine. */
  limits: LimitsStatus.optional(),
});
export type SandboxStatus = z.infer<typeof SandboxStatus>;

/**
 * A network host pattern an agent may reach: `api.example.com`, `*.example.com` (subdomains only),
 * either with an optional `:port`; `*` alone opens the network entirely.
 */
export const HostPattern = z.string().min(1).max(255)
  .regex(/^(\*|(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?|\[[0-9A-Fa-f:.]+\](:\d{1,5})?)$/, 'must be a host name, *.domain or *, with an optional :port');

/** A path outside the worktree a policy lets the agent read: absolute, or starting with `~/`. */
export const GrantedPath = z.string().min(1).max(1000)
  .refine((path) => path.startsWith('/') || path.startsWith('~/'), 'must be absolute or start with ~/');
