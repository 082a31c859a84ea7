// The Agent Assignment protocol's routes (submit, list, inspect, cancel) and a task's conversation (answers, follow-ups, session settings).
import { z } from 'zod';
import { OpenQuestion } from '../questions';
import { AnswerInput, CancelTask, FollowUp, ServerInfo, SetConfigOption, SetMode, SubmitTask, TaskDetail, TaskSummary } from '../task';
import { ById, routesOf } from './route';

const aa = routesOf('Agent Assignment');

export const aaRoutes = {
  submit: aa.post('/', 'Submit a task (or resubmit a finished one).',
    { body: SubmitTask, bodyKind: 'json', responses: { 202: TaskSummary }, errors: [400, 409, 413, 415] }),
  list: aa.get('/', 'Every task, with the server name; ETag (304) and gzip/br when accepted.', { responses: { 200: ServerInfo, 304: 'empty' } }),
  cancelByBody: aa.delete('/', 'Cancel the task named in the body (409 for a finished task, saying what to do instead).',
    { body: CancelTask, bodyKind: 'json', responses: { 200: TaskSummary }, errors: [400, 404, 409, 415] }),
  detail: aa.get('/tasks/:id', 'One task with its turns and open question.', { params: ById, responses: { 200: TaskDetail }, errors: [404] }),
  cancel: aa.delete('/tasks/:id', 'Cancel a task (409 for a finished task, saying what to do instead).',
    { params: ById, responses: { 200: TaskSummary }, errors: [404, 409] }),
  answer: aa.post('/tasks/:id/input', 'Answer the open question of a task that awaits input.',
    { params: ById, body: AnswerInput, bodyKind: 'json', responses: { 200: z.object({ answered: OpenQuestion, task: TaskSummary }) }, errors: [400, 404, 409] }),
  followUp: aa.post('/tasks/:id/prompt', 'Send a follow-up prompt to a finished task.',
    { params: ById, body: FollowUp, bodyKind: 'json', responses: { 202: TaskSummary }, errors: [400, 404, 409] }),
  setMode: aa.post('/tasks/:id/mode', "Switch the agent session's mode.",
    { params: ById, body: SetMode, bodyKind: 'json', responses: { 200: z.object({ modeId: z.string() }) }, errors: [400, 404, 409] }),
  setConfig: aa.post('/tasks/:id/config', "Set one of the agent session's configuration options.",
    { params: ById, body: SetConfigOption, bodyKind: 'json', responses: { 200: z.object({ configId: z.string(), value: z.union([z.string(), z.boolean()]) }) }, errors: [400, 404, 409] }),
  // Last: the short forms match any single segment.
  detailShort: aa.get('/:id', 'One task (short form of GET /tasks/{id}).', { params: ById, responses: { 200: TaskDetail }, errors: [404] }),
  cancelShort: aa.delete('/:id', 'Cancel a task (short form of DELETE /tasks/{id}).', { params: ById, responses: { 200: TaskSummary }, errors: [404, 409] }),
} as const;
