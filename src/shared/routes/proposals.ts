// Answers to tasks that agents proposed through the desk's MCP server: accept (the task may run) or dismiss.
import { TaskSummary } from '../task';
import { ById, routesOf } from './route';

const board = routesOf('Board API');

export const proposalRoutes = {
  acceptProposal: board.post('/tasks/:id/accept-proposal', 'Accept a task an agent proposed: it is queued and runs like any task.',
    { params: ById, responses: { 200: TaskSummary }, errors: [404, 409] }),
  dismissProposal: board.post('/tasks/:id/dismiss-proposal', 'Dismiss a task an agent proposed: it is cancelled and never runs.',
    { params: ById, responses: { 200: TaskSummary }, errors: [404, 409] }),
} as const;
