// What a stand-in model server answers, step by step: one step per model request, scripted by each test. Shared by
// the Anthropic, OpenAI and Gemini stand-ins so a test reads the same whichever vendor's wire format it speaks.

/** One answer of the model. Each request the agent makes to the model takes the next step. */
export type ModelStep =
  /** Ask for a tool. `tool` lists acceptable names; the first one the request offers wins (see `pickTool`). */
  | { kind: 'tool'; tool: readonly string[]; input: Record<string, unknown>; text?: string }
  /** Answer with text (and optional thinking first): the end of the agent's turn. */
  | { kind: 'text'; text: string; thinking?: string }
  /** Fail the request with this HTTP status (429, 500, 529 "overloaded", …) and the vendor's error body. */
  | { kind: 'fail'; status: number; message?: string }
  /** Start a streamed answer with this text, then cut the connection without ending the stream. */
  | { kind: 'cut'; text?: string }
  /** Wait this long before answering with `then`. */
  | { kind: 'slow'; delayMs: number; then: ModelStep };

/** What the stand-in saw: every request's path, body and the tool names it offered, for tests to assert on. */
export interface ModelRequestRecord {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  offeredTools: string[];
}

/** Thrown into the stand-in's answer when a `tool` step names no tool the request offers: the test's script is wrong. */
export class ToolNotOffered extends Error {}

/**
 * The tool to call: the first of `wanted` that the request offers, matched exactly, case-insensitively, or as the
 * last part of an MCP-qualified name (`Write` matches `mcp__acp__Write`).
 */
export function pickTool(wanted: readonly string[], offered: readonly string[]): string {
  for (const name of wanted) {
    const lower = name.toLowerCase();
    const found = offered.find((tool) => tool === name)
      ?? offered.find((tool) => tool.toLowerCase() === lower)
      ?? offered.find((tool) => tool.toLowerCase().split('__').pop() === lower);
    if (found) return found;
  }
  throw new ToolNotOffered(`None of ${wanted.join(', ')} is offered; the request offers ${offered.join(', ') || 'no tools'}`);
}

/** Hands out a script's steps in order; once it runs out, every further request gets `fallback` (a plain text answer). */
export function stepQueue(steps: readonly ModelStep[], fallback: ModelStep = { kind: 'text', text: 'Done.' }): { next(): ModelStep; remaining(): number } {
  let index = 0;
  return {
    next: () => (index < steps.length ? steps[index++]! : fallback),
    remaining: () => steps.length - index,
  };
}
