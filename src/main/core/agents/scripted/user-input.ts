// The two questions a script can put to the user, built and read the same way in both dialects.
import type { CreateElicitationRequest, RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { fieldOf } from './json-field';
import type { ElicitationOutcome, PermissionOutcome } from './script-sink';

const ALLOW = 'allow';
const REJECT = 'reject';

/** `session/request_permission` params for `ask QUESTION`: allow once or reject once. */
export function permissionRequest(sessionId: string, toolCallId: string, question: string): RequestPermissionRequest {
  return {
    sessionId,
    toolCall: { toolCallId, title: question, kind: 'other', status: 'pending' },
    options: [
      { optionId: ALLOW, name: 'Allow', kind: 'allow_once' },
      { optionId: REJECT, name: 'Reject', kind: 'reject_once' },
    ],
  };
}

/** Reads a permission answer; an option we did not offer counts as a rejection (fail closed). */
export function readPermissionOutcome(response: unknown): PermissionOutcome {
  const outcome = fieldOf(response, 'outcome');
  if (fieldOf(outcome, 'outcome') === 'cancelled') return 'cancelled';
  if (fieldOf(outcome, 'outcome') === 'selected' && fieldOf(outcome, 'optionId') === ALLOW) return 'allow';
  return 'reject';
}

/**
 * `elicitation/create` params for `question TEXT`, in the form mode of ACP v1's elicitation schema
 * (present in SDK 2.4.0's stable types):
 *   { sessionId, mode: 'form', message: TEXT,
 *     requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: TEXT } }, required: ['answer'] } }
 * The client answers { action: 'accept', content: { answer } } or { action: 'decline' | 'cancel' }.
 */
export function elicitationRequest(sessionId: string, text: string): CreateElicitationRequest {
  return {
    sessionId,
    mode: 'form',
    message: text,
    requestedSchema: {
      type: 'object',
      properties: { answer: { type: 'string', title: text } },
      required: ['answer'],
    },
  };
}

export function readElicitationOutcome(response: unknown): ElicitationOutcome {
  const action = fieldOf(response, 'action');
  if (typeof action !== 'string') throw new Error('The client answered the question without an action');
  if (action !== 'accept') return { action };
  const answer = fieldOf(fieldOf(response, 'content'), 'answer');
  return { action, answer: answer === undefined || answer === null ? '' : String(answer) };
}

