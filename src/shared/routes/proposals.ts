// Answers to tasks that agents proposed through the desk's MCP server: accept (the task may run) or dismiss.
import { z } from 'zod';
import { ApiErrorBody } from '../api-error';
import { TaskSummary } from '../task';
import { defineRoute, Segment } from './route';

const family = 'Board API';
const task = z.object({ id: Segment });

export const proposalRoutes = {
  acceptProposal: defineRoute({
    method: 'POST', path: '/tasks/:id/accept-proposal', family, summary: 'Accept a task an agent proposed: it is queued and runs like any task.',
    params: task, responses: { 200: TaskSummary }, error: ApiErrorBody, errors: [404, 409],
  }),
  dismissProposal: defineRoute({
    method: 'POST', path: '/tasks/:id/dismiss-proposal', family, summary: 'Dismiss a task an agent proposed: it is cancelled and never runs.',
    params: task, responses: { 200: TaskSummary }, error: ApiErrorBody, errors: [404, 409],
  }),
} as const;
