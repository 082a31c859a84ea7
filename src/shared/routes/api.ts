// The app's own API for the board under /api (and the review actions under /tasks/<id>/): lists, diffs, review,
// dependencies, settings, agents and their logins, the events socket and this contract as OpenAPI.
import { z } from 'zod';
import { AgentInstall, AgentLogin, AgentsResponse, AgentTest, LoginInput, StartInstall, StartLogin } from '../agents';
import { DiskUse } from '../disk';
import { EventPage } from '../events';
import { AddDependency, ApproveTask, DeskSettings, SetDependencies, TaskDiff, UpdateSettings } from '../review';
import { RunnersView } from '../runners';
import { TaskDetail, TaskSummary } from '../task';
import { TaskListQuery, TaskPage } from '../task-list';
import { ById, routesOf, Segment } from './route';

const board = routesOf('Board API');

/** The largest page of `GET /api/tasks/<id>/events`. */
export const MAX_EVENT_PAGE = 5000;

/** A whole number ≥ 0 from a query string, or the fallback when it is left out. */
const countParam = (fallback: number) => z.string().optional().transform((text, context) => {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    context.addIssue({ code: 'custom', message: 'must be a whole number ≥ 0' });
    return z.NEVER;
  }
  return value;
});

export const apiRoutes = {
  listTasks: board.get('/api/tasks', 'Tasks filtered and paged, with the last event seq to open the socket after.',
    { query: TaskListQuery, responses: { 200: TaskPage, 304: 'empty' }, errors: [400] }),
  taskEvents: board.get('/api/tasks/:id/events', "A task's recorded events, page by page.",
    { params: ById, query: z.object({ after: countParam(0), limit: countParam(1000).transform((n) => Math.max(1, Math.min(n, MAX_EVENT_PAGE))) }), responses: { 200: EventPage }, errors: [400, 404] }),
  diff: board.get('/api/tasks/:id/diff', "The task's changes against its base.", { params: ById, responses: { 200: TaskDiff }, errors: [404, 409] }),
  approve: board.post('/tasks/:id/approve', "Approve a completed task: merge its branch into the base branch. A task whose diff has files that need attention is refused (409 attention_unconfirmed, details.files) unless the body says {\"confirmAttention\": true}.",
    { params: ById, body: ApproveTask, bodyKind: 'optional-json', responses: { 200: TaskSummary }, errors: [400, 404, 409] }),
  reject: board.post('/tasks/:id/reject', 'Reject a completed task.', { params: ById, responses: { 200: TaskSummary }, errors: [404, 409] }),
  rerun: board.post('/tasks/:id/rerun', 'Run a finished task again.', { params: ById, responses: { 202: TaskSummary }, errors: [404, 409] }),
  setDependencies: board.put('/tasks/:id/dependencies', "Replace a task's dependencies.",
    { params: ById, body: SetDependencies, bodyKind: 'json', responses: { 200: TaskDetail }, errors: [400, 404, 409] }),
  addDependency: board.post('/tasks/:id/dependencies', 'Add one dependency to a task.',
    { params: ById, body: AddDependency, bodyKind: 'json', responses: { 200: TaskDetail }, errors: [400, 404, 409] }),
  removeDependency: board.delete('/tasks/:id/dependencies/:dependency', 'Remove one dependency from a task.',
    { params: z.object({ id: Segment, dependency: Segment }), responses: { 200: TaskDetail }, errors: [404, 409] }),
  settings: board.get('/api/settings', "The desk's settings.", { responses: { 200: DeskSettings } }),
  updateSettings: board.put('/api/settings', "Change the desk's adjustable settings.",
    { body: UpdateSettings, bodyKind: 'json', responses: { 200: DeskSettings }, errors: [400] }),
  diskUse: board.get('/api/disk-use', "What the desk's snapshots of base commits and the tasks' layers over them take on disk (each inode once).", { responses: { 200: DiskUse } }),
  runners: board.get('/api/runners', 'Where agents may run (local, docker, cluster): each runner\'s state, capacity and load.', { responses: { 200: RunnersView } }),
  agents: board.get('/api/agents', 'The agents a task may name, whether each can start here, and the default.', { responses: { 200: AgentsResponse } }),
  startLogin: board.post('/api/agents/:id/login', "Start an agent's own terminal login (a body is optional).",
    { params: ById, body: StartLogin, bodyKind: 'optional-json', responses: { 202: AgentLogin }, errors: [400, 404, 409] }),
  login: board.get('/api/agents/:id/login', "An agent login's terminal output and state.", { params: ById, responses: { 200: AgentLogin }, errors: [404] }),
  loginInput: board.post('/api/agents/:id/login/input', "Type into an agent login's terminal.",
    { params: ById, body: LoginInput, bodyKind: 'json', responses: { 200: AgentLogin }, errors: [400, 404, 409] }),
  stopLogin: board.delete('/api/agents/:id/login', 'Stop an agent login.', { params: ById, responses: { 200: z.object({ stopped: z.string() }) }, errors: [404] }),
  startInstall: board.post('/api/agents/:id/install', "Install an agent with npm into the desk's agent cache (its package, or {\"source\"}: a tarball path or package spec).",
    { params: ById, body: StartInstall, bodyKind: 'optional-json', responses: { 202: AgentInstall }, errors: [400, 404, 409] }),
  install: board.get('/api/agents/:id/install', "An agent install's progress and log.", { params: ById, responses: { 200: AgentInstall }, errors: [404] }),
  testAgent: board.post('/api/agents/:id/test', "Start the agent, initialize and session/new in an empty temp dir: who it is and whether it is ready.",
    { params: ById, responses: { 200: AgentTest }, errors: [404] }),
  events: board.get('/api/events', 'WebSocket (subprotocol assignment-desk.v1; browsers offer the token as subprotocol bearer.<token>): every new event after ?after=<seq>.',
    { query: z.object({ after: z.string().optional() }), responses: { 101: 'empty' }, errors: [404] }),
  openapi: board.get('/api/openapi.json', 'This contract as an OpenAPI 3.1 document.', { responses: { 200: z.record(z.string(), z.unknown()) } }),
} as const;
