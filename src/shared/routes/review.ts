// Review at scale: archiving finished tasks (one, or every settled one at once) and per-file viewed marks of a diff.
import { z } from 'zod';
import { ApiErrorBody } from '../api-error';
import { TaskSummary } from '../task';
import { SetViewed, ViewedFiles } from '../viewed';
import { defineRoute, Segment } from './route';

const family = 'Board API';
const task = z.object({ id: Segment });
const error = ApiErrorBody;

export const reviewRoutes = {
  archive: defineRoute({
    method: 'POST', path: '/tasks/:id/archive', family,
    summary: 'Archive a finished task: hidden from the board, kept with its branch and history (GET / still lists it, with archived: true).',
    params: task, responses: { 200: TaskSummary }, error, errors: [404, 409],
  }),
  unarchive: defineRoute({
    method: 'POST', path: '/tasks/:id/unarchive', family, summary: 'Put an archived task back on the board.',
    params: task, responses: { 200: TaskSummary }, error, errors: [404],
  }),
  clearDone: defineRoute({
    method: 'POST', path: '/api/tasks/clear-done', family,
    summary: 'Archive every finished task nobody still has to review (approved, rejected, failed, cancelled).',
    responses: { 200: z.object({ archived: z.array(z.string()) }) }, error,
  }),
  viewed: defineRoute({
    method: 'GET', path: '/api/tasks/:id/viewed', family, summary: "The files of a task's diff marked as viewed, with the diff key each was marked at.",
    params: task, responses: { 200: ViewedFiles }, error, errors: [404],
  }),
  setViewed: defineRoute({
    method: 'PUT', path: '/tasks/:id/viewed', family, summary: "Mark one file of a task's diff as viewed (at the diff key shown) or not.",
    params: task, body: SetViewed, bodyKind: 'json', responses: { 200: ViewedFiles }, error, errors: [400, 404],
  }),
} as const;
