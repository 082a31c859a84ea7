// How a stand-in plays the parts of a script step that are the same for every vendor: a `slow` wait, a `fail`, and a
// script naming a tool the request did not offer. Each vendor gives its own error body.
import type { ServerResponse } from 'node:http';
import { ToolNotOffered, type ModelStep } from './model-script';
import { sendJson, type StandInServer } from './stand-in-http';

/** The vendor's error body for an HTTP status (and the script's message, when it gives one). */
export type ErrorBodyOf = (status: number, message?: string) => unknown;

/** A step that answers with content: what is left once waits and failures are played. */
export type AnsweringStep = Exclude<ModelStep, { kind: 'slow' } | { kind: 'fail' }>;

/**
 * Waits out `slow` steps (a client that gives up, or a desk that cancels, ends the wait early) and answers a `fail`
 * step. Gives the step left to answer, or undefined when the request is done with.
 */
export async function playWaitsAndFailures(step: ModelStep, res: ServerResponse, server: Pick<StandInServer, 'delay'>, errorBody: ErrorBodyOf): Promise<AnsweringStep | undefined> {
  let current = step;
  while (current.kind === 'slow') {
    await server.delay(res, current.delayMs);
    if (res.destroyed || res.writableEnded) return undefined;
    current = current.then;
  }
  if (current.kind === 'fail') {
    sendJson(res, current.status, errorBody(current.status, current.message));
    return undefined;
  }
  return current;
}

/** What `build` makes of the step, or undefined once a 400 has said the test's script names a tool that was not offered. */
export function unlessToolNotOffered<T>(res: ServerResponse, errorBody: ErrorBodyOf, build: () => T): T | undefined {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof ToolNotOffered)) throw error;
    sendJson(res, 400, errorBody(400, `The stand-in's script is wrong: ${error.message}`));
    return undefined;
  }
}
