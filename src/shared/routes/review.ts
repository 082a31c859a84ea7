// Review at scale: archiving finished tasks (one, or every settled one at once) and per-file viewed marks of a diff.
import { z } from 'zod';
import { TaskSummary } from '../task';
import { SetViewed, ViewedFiles } from '../viewed';
import { ById, routesOf } from './route';

const board = routesOf('Board API');

export const reviewRoutes = {
  archive: board.post('/tasks/:id/archive', 'Archive a finished task: hidden from the board, kept with its branch and history (GET / still lists it, with archived: true).',
    { params: ById, responses: { 200: TaskSummary }, errors: [404, 409] }),
  unarchive: board.post('/tasks/:id/unarchive', 'Put an archived task back on the board.', { params: ById, responses: { 200: TaskSummary }, errors: [404] }),
  clearDone: board.post('/api/tasks/clear-done', 'Archive every finished task nobody still has to review (approved, rejected, failed, cancelled).',
    { responses: { 200: z.object({ archived: z.array(z.string()) }) } }),
  viewed: board.get('/api/tasks/:id/viewed', "The files of a task's diff marked as viewed, with the diff key each was marked at.",
    { params: ById, responses: { 200: ViewedFiles }, errors: [404] }),
  setViewed: board.put('/tasks/:id/viewed', "Mark one file of a task's diff as viewed (at the diff key shown) or not.",
    { params: ById, body: SetViewed, bodyKind: 'json', responses: { 200: ViewedFiles }, errors: [400, 404] }),
} as const;
