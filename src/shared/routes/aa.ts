// The Agent Assignment protocol's routes (submit, list, inspect, cancel) and a task's conversation (answers, follow-ups, session settings).
import { z } from 'zod';
import { ApiErrorBody } from '../api-error';
import { OpenQuestion } from '../questions';
import { AnswerInput, CancelTask, FollowUp, ServerInfo, SetConfigOption, SetMode, SubmitTask, TaskDetail, TaskSummary } from '../task';
import { defineRoute, Segment } from './route';

const family = 'Agent Assignment';
const task = z.object({ id: Segment });
const error = ApiErrorBody;

export const aaRoutes = {
  submit: defineRoute({
    method: 'POST', path: '/', family, summary: 'Submit a task (or resubmit a finished one).',
    body: SubmitTask, bodyKind: 'json', responses: { 202: TaskSummary }, error, errors: [400, 409, 413, 415],
  }),
  list: defineRoute({
    method: 'GET', path: '/', family, summary: 'Every task, with the server name; ETag (304) and gzip/br when accepted.',
    responses: { 200: ServerInfo, 304: 'empty' }, error,
  }),
  cancelByBody: defineRoute({
    method: 'DELETE', path: '/', family, summary: 'Cancel the task named in the body (409 for a finished task, saying what to do instead).',
    body: CancelTask, bodyKind: 'json', responses: { 200: TaskSummary }, error, errors: [400, 404, 409, 415],
  }),
  detail: defineRoute({
    method: 'GET', path: '/tasks/:id', family, summary: 'One task with its turns and open question.',
    params: task, responses: { 200: TaskDetail }, error, errors: [404],
  }),
  cancel: defineRoute({
    method: 'DELETE', path: '/tasks/:id', family, summary: 'Cancel a task (409 for a finished task, saying what to do instead).',
    params: task, responses: { 200: TaskSummary }, error, errors: [404, 409],
  }),
  answer: defineRoute({
    method: 'POST', path: '/tasks/:id/input', family, summary: 'Answer the open question of a task that awaits input.',
    params: task, body: AnswerInput, bodyKind: 'json',
    responses: { 200: z.object({ answered: OpenQuestion, task: TaskSummary }) }, error, errors: [400, 404, 409],
  }),
  followUp: defineRoute({
    method: 'POST', path: '/tasks/:id/prompt', family, summary: 'Send a follow-up prompt to a finished task.',
    params: task, body: FollowUp, bodyKind: 'json', responses: { 202: TaskSummary }, error, errors: [400, 404, 409],
  }),
  setMode: defineRoute({
    method: 'POST', path: '/tasks/:id/mode', family, summary: "Switch the agent session's mode.",
    params: task, body: SetMode, bodyKind: 'json', responses: { 200: z.object({ modeId: z.string() }) }, error, errors: [400, 404, 409],
  }),
  setConfig: defineRoute({
    method: 'POST', path: '/tasks/:id/config', family, summary: "Set one of the agent session's configuration options.",
    params: task, body: SetConfigOption, bodyKind: 'json',
    responses: { 200: z.object({ configId: z.string(), value: z.union([z.string(), z.boolean()]) }) }, error, errors: [400, 404, 409],
  }),
  // Last: the short forms match any single segment.
  detailShort: defineRoute({
    method: 'GET', path: '/:id', family, summary: 'One task (short form of GET /tasks/{id}).',
    params: task, responses: { 200: TaskDetail }, error, errors: [404],
  }),
  cancelShort: defineRoute({
    method: 'DELETE', path: '/:id', family, summary: 'Cancel a task (short form of DELETE /tasks/{id}).',
    params: task, responses: { 200: TaskSummary }, error, errors: [404, 409],
  }),
} as const;
