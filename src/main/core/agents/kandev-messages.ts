// Kandev's messages as zod schemas: what the desk reads from a Kandev agent, parsed once at the edge.
import { z } from 'zod';
import { lazySchema } from '../../../shared/lazy-schema';

export const KandevInitializeResult = lazySchema(() => z.object({
  protocolVersion: z.literal('1.0'),
  capabilities: z.object({ sessionResumption: z.boolean().optional() }).passthrough().optional(),
}).passthrough());
export type KandevInitializeResult = z.infer<typeof KandevInitializeResult>;

export const KandevSessionCreated = lazySchema(() => z.object({ sessionId: z.string().min(1) }).passthrough());
export const KandevPromptAccepted = lazySchema(() => z.object({ accepted: z.boolean().optional() }).passthrough().nullable());

/** A `session/update`: `{type, data}`; `complete` and `error` end the turn, the rest are mapped to AgentUpdates. */
export const KandevUpdate = lazySchema(() => z.object({ sessionId: z.string().optional(), type: z.string(), data: z.unknown() }));
export type KandevUpdate = z.infer<typeof KandevUpdate>;

export const KandevComplete = lazySchema(() => z.object({ success: z.boolean().optional(), cancelled: z.boolean().optional(), summary: z.string().optional() }).passthrough());
export const KandevError = lazySchema(() => z.object({ message: z.string().optional(), details: z.string().optional() }).passthrough());

/** Kandev has no way to wait for the person; agents reuse ACP's permission and question requests (an extension). */
export const KandevPermissionRequest = lazySchema(() => z.object({
  toolCall: z.object({
    toolCallId: z.string().optional(),
    title: z.string().nullish(),
    kind: z.string().nullish(),
    locations: z.array(z.object({ path: z.string() }).passthrough()).nullish(),
    rawInput: z.unknown().optional(),
  }).passthrough(),
  options: z.array(z.object({ optionId: z.string(), name: z.string(), kind: z.string() }).passthrough()),
}).passthrough());

export const KandevElicitationRequest = lazySchema(() => z.object({
  message: z.string(),
  mode: z.string().default('form'),
  requestedSchema: z.unknown().optional(),
  url: z.string().optional(),
}).passthrough());

export const KandevReadTextFile = lazySchema(() => z.object({ path: z.string(), line: z.number().int().positive().nullish(), limit: z.number().int().positive().nullish() }).passthrough());
export const KandevWriteTextFile = lazySchema(() => z.object({ path: z.string(), content: z.string() }).passthrough());
