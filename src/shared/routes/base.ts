// The routes that keep a task's branch up to date with its base branch and lead out of conflicts.
import { BaseStatus, BaseUpdateResult, ResolveConflict, UpdateFromBase } from '../base-update';
import { TaskSummary } from '../task';
import { ById, routesOf } from './route';

const board = routesOf('Board API');

export const baseRoutes = {
  baseStatus: board.get('/tasks/:id/base', "How far the task's branch is behind and ahead of its base branch, and any conflict.",
    { params: ById, responses: { 200: BaseStatus }, errors: [404, 409] }),
  update: board.post('/tasks/:id/update', "Bring the base branch's new commits into the task's branch (merge or rebase).",
    { params: ById, body: UpdateFromBase, bodyKind: 'optional-json', responses: { 200: BaseUpdateResult }, errors: [400, 404, 409] }),
  resolve: board.post('/tasks/:id/resolve', 'Resolve a conflicted update: ask the agent, commit what the person resolved, or undo it.',
    { params: ById, body: ResolveConflict, bodyKind: 'json', responses: { 200: TaskSummary, 202: TaskSummary }, errors: [400, 404, 409] }),
} as const;
