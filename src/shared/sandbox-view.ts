// What an agent sees in its sandbox, as Settings shows it: each place readable, writable or hidden, and why.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

export const ViewAccess = lazySchema(() => z.enum(['readable', 'writable', 'hidden']));
export type ViewAccess = z.infer<typeof ViewAccess>;

/** One place of the view; later entries lie over earlier ones (a toolchain readable inside the hidden home). */
export const SandboxViewEntry = lazySchema(() => z.object({
  /** Absolute; `<task>` stands for the parts that differ from task to task. */
  path: z.string(),
  access: ViewAccess,
  /** Why the place is so, in words a person reads. */
  why: z.string(),
}));
export type SandboxViewEntry = z.infer<typeof SandboxViewEntry>;

/** `GET /api/governance/agents/<id>/sandbox-view` answer, from the same planner that lays out the sandbox. */
export const AgentSandboxView = lazySchema(() => z.object({
  agentId: z.string(),
  /** False when the agent runs unsandboxed (no sandbox here, or the policy turns it off): it then sees everything. */
  confined: z.boolean(),
  /** One line: what confines the agent, or why nothing does. */
  note: z.string(),
  entries: z.array(SandboxViewEntry),
}));
export type AgentSandboxView = z.infer<typeof AgentSandboxView>;
