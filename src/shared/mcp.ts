// The desk's MCP server for agents: where it is served, and the input of each tool it offers (zod, as the
// SDK's server validates them and clients read them as JSON Schema).
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { AttemptEntry, ChooseAttempt, MAX_ATTEMPTS, MIN_ATTEMPTS, TaskId, TaskStatus } from './task';

/** Served on the desk's own port; only a task's own MCP token opens it (the desk's token does not). */
export const MCP_PATH = '/mcp';
/** The name agents see for the desk's MCP server in `session/new`. */
export const MCP_SERVER_NAME = 'assignment-desk';

/** The desk's MCP server as one task's agent is given it in `session/new`: its address and the task's token header. */
export interface McpServerEntry { url: string; headers: { name: string; value: string }[] }

export const ListTasksInput = lazySchema(() => z.object({
  status: TaskStatus.optional().describe('Only tasks in this status.'),
}));
export type ListTasksInput = z.infer<typeof ListTasksInput>;

export const ProposeTaskInput = lazySchema(() => z.object({
  id: TaskId.describe('The new task\'s id; must not name an existing task.'),
  prompt: z.string().min(1).max(100_000).refine((p) => p.trim().length > 0, 'must not be empty').describe('What the new task\'s agent is asked to do.'),
  dependencies: z.array(TaskId).max(100).default([]).describe('Tasks the new one waits for.'),
  attempts: z.array(AttemptEntry).min(MIN_ATTEMPTS).max(MAX_ATTEMPTS).optional()
    .describe(`Several attempts at the task side by side (${MIN_ATTEMPTS} to ${MAX_ATTEMPTS}, each {agent?}); held with the proposal until it is accepted, then one is kept.`),
  choose: ChooseAttempt.optional().describe('How the attempt kept is chosen: first, check or judge; left out, a person chooses.'),
  judge: z.string().min(1).max(100).optional().describe('An agent that compares the attempts once all have ended and recommends one.'),
}));
export type ProposeTaskInput = z.infer<typeof ProposeTaskInput>;

export const LinkDependencyInput = lazySchema(() => z.object({
  task: TaskId.describe('The task that is to wait; it must still be queued.'),
  dependsOn: TaskId.describe('The task it waits for.'),
}));
export type LinkDependencyInput = z.infer<typeof LinkDependencyInput>;

export const ReadDiffInput = lazySchema(() => z.object({
  task: TaskId.describe('The task whose changes to read (against its base commit).'),
}));
export type ReadDiffInput = z.infer<typeof ReadDiffInput>;
