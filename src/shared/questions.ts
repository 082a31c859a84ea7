// Questions an agent waits on until a person answers: permission requests and forms (elicitations).
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

/** An option of a permission question (ACP `PermissionOption`). */
export const QuestionOption = lazySchema(() => z.object({ optionId: z.string(), name: z.string(), kind: z.string() }));

/** Something an agent waits for a person to answer: a permission request or a form (elicitation). */
export const OpenQuestion = lazySchema(() => z.object({
  id: z.string(),
  taskId: z.string(),
  kind: z.enum(['permission', 'elicitation']),
  /** What the agent asks, in its words (tool call title or elicitation message). */
  prompt: z.string(),
  /** For permissions: the buttons to offer. */
  options: z.array(QuestionOption).optional(),
  /** For elicitations: the JSON schema of the form to fill in. */
  requestedSchema: z.unknown().optional(),
  /** The tool call the permission is about, as the agent described it. */
  toolCall: z.unknown().optional(),
  /** The governance request that escalated it to a person. */
  governanceRequestId: z.string().optional(),
  askedAt: z.string(),
}));
export type OpenQuestion = z.infer<typeof OpenQuestion>;

/** How a question was answered: an option, form content, a decline, or cancelled (task stopped). */
export const QuestionAnswer = lazySchema(() => z.union([
  z.object({ optionId: z.string() }),
  z.object({ content: z.record(z.string(), z.unknown()) }),
  z.object({ declined: z.literal(true) }),
  z.object({ cancelled: z.literal(true) }),
]));
export type QuestionAnswer = z.infer<typeof QuestionAnswer>;
