// The routes that keep a task's branch up to date with its base branch and lead out of conflicts.
import { z } from 'zod';
import { ApiErrorBody } from '../api-error';
import { BaseStatus, BaseUpdateResult, ResolveConflict, UpdateFromBase } from '../base-update';
import { TaskSummary } from '../task';
import { defineRoute, Segment } from './route';

const family = 'Board API';
const task = z.object({ id: Segment });
const error = ApiErrorBody;

export const baseRoutes = {
  baseStatus: defineRoute({
    method: 'GET', path: '/tasks/:id/base', family, summary: "How far the task's branch is behind and ahead of its base branch, and any conflict.",
    params: task, responses: { 200: BaseStatus }, error, errors: [404, 409],
  }),
  update: defineRoute({
    method: 'POST', path: '/tasks/:id/update', family, summary: "Bring the base branch's new commits into the task's branch (merge or rebase).",
    params: task, body: UpdateFromBase, bodyKind: 'optional-json', responses: { 200: BaseUpdateResult }, error, errors: [400, 404, 409],
  }),
  resolve: defineRoute({
    method: 'POST', path: '/tasks/:id/resolve', family, summary: 'Resolve a conflicted update: ask the agent, commit what the person resolved, or undo it.',
    params: task, body: ResolveConflict, bodyKind: 'json', responses: { 200: TaskSummary, 202: TaskSummary }, error, errors: [400, 404, 409],
  }),
} as const;
