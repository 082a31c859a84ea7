// The app's own API for the board under /api (and the review actions under /tasks/<id>/): lists, diffs, review,
// dependencies, settings, agents and their logins, the events socket and this contract as OpenAPI.
import { z } from 'zod';
import { AgentInstall, AgentLogin, AgentsResponse, AgentTest, LoginInput, StartInstall, StartLogin } from '../agents';
import { ApiErrorBody } from '../api-error';
import { EventPage } from '../events';
import { AddDependency, DeskSettings, SetDependencies, TaskDiff, UpdateSettings } from '../review';
import { RunnersView } from '../runners';
import { TaskDetail, TaskSummary } from '../task';
import { TaskListQuery, TaskPage } from '../task-list';
import { defineRoute, Segment } from './route';

const family = 'Board API';
const task = z.object({ id: Segment });
const agent = z.object({ id: Segment });
const error = ApiErrorBody;

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
  listTasks: defineRoute({
    method: 'GET', path: '/api/tasks', family, summary: 'Tasks filtered and paged, with the last event seq to open the socket after.',
    query: TaskListQuery, responses: { 200: TaskPage, 304: 'empty' }, error, errors: [400],
  }),
  taskEvents: defineRoute({
    method: 'GET', path: '/api/tasks/:id/events', family, summary: "A task's recorded events, page by page.",
    params: task, query: z.object({ after: countParam(0), limit: countParam(1000).transform((n) => Math.max(1, Math.min(n, MAX_EVENT_PAGE))) }),
    responses: { 200: EventPage }, error, errors: [400, 404],
  }),
  diff: defineRoute({
    method: 'GET', path: '/api/tasks/:id/diff', family, summary: "The task's changes against its base.",
    params: task, responses: { 200: TaskDiff }, error, errors: [404, 409],
  }),
  approve: defineRoute({
    method: 'POST', path: '/tasks/:id/approve', family, summary: "Approve a completed task: merge its branch into the base branch.",
    params: task, responses: { 200: TaskSummary }, error, errors: [404, 409],
  }),
  reject: defineRoute({
    method: 'POST', path: '/tasks/:id/reject', family, summary: 'Reject a completed task.',
    params: task, responses: { 200: TaskSummary }, error, errors: [404, 409],
  }),
  rerun: defineRoute({
    method: 'POST', path: '/tasks/:id/rerun', family, summary: 'Run a finished task again.',
    params: task, responses: { 202: TaskSummary }, error, errors: [404, 409],
  }),
  setDependencies: defineRoute({
    method: 'PUT', path: '/tasks/:id/dependencies', family, summary: "Replace a task's dependencies.",
    params: task, body: SetDependencies, bodyKind: 'json', responses: { 200: TaskDetail }, error, errors: [400, 404, 409],
  }),
  addDependency: defineRoute({
    method: 'POST', path: '/tasks/:id/dependencies', family, summary: 'Add one dependency to a task.',
    params: task, body: AddDependency, bodyKind: 'json', responses: { 200: TaskDetail }, error, errors: [400, 404, 409],
  }),
  removeDependency: defineRoute({
    method: 'DELETE', path: '/tasks/:id/dependencies/:dependency', family, summary: 'Remove one dependency from a task.',
    params: z.object({ id: Segment, dependency: Segment }), responses: { 200: TaskDetail }, error, errors: [404, 409],
  }),
  settings: defineRoute({
    method: 'GET', path: '/api/settings', family, summary: "The desk's settings.",
    responses: { 200: DeskSettings }, error,
  }),
  updateSettings: defineRoute({
    method: 'PUT', path: '/api/settings', family, summary: "Change the desk's adjustable settings.",
    body: UpdateSettings, bodyKind: 'json', responses: { 200: DeskSettings }, error, errors: [400],
  }),
  runners: defineRoute({
    method: 'GET', path: '/api/runners', family, summary: 'Where agents may run (local, docker, cluster): each runner\'s state, capacity and load.',
    responses: { 200: RunnersView }, error,
  }),
  agents: defineRoute({
    method: 'GET', path: '/api/agents', family, summary: 'The agents a task may name, whether each can start here, and the default.',
    responses: { 200: AgentsResponse }, error,
  }),
  startLogin: defineRoute({
    method: 'POST', path: '/api/agents/:id/login', family, summary: "Start an agent's own terminal login (a body is optional).",
    params: agent, body: StartLogin, bodyKind: 'optional-json', responses: { 202: AgentLogin }, error, errors: [400, 404, 409],
  }),
  login: defineRoute({
    method: 'GET', path: '/api/agents/:id/login', family, summary: "An agent login's terminal output and state.",
    params: agent, responses: { 200: AgentLogin }, error, errors: [404],
  }),
  loginInput: defineRoute({
    method: 'POST', path: '/api/agents/:id/login/input', family, summary: "Type into an agent login's terminal.",
    params: agent, body: LoginInput, bodyKind: 'json', responses: { 200: AgentLogin }, error, errors: [400, 404, 409],
  }),
  stopLogin: defineRoute({
    method: 'DELETE', path: '/api/agents/:id/login', family, summary: 'Stop an agent login.',
    params: agent, responses: { 200: z.object({ stopped: z.string() }) }, error, errors: [404],
  }),
  startInstall: defineRoute({
    method: 'POST', path: '/api/agents/:id/install', family,
    summary: "Install an agent with npm into the desk's agent cache (its package, or {\"source\"}: a tarball path or package spec).",
    params: agent, body: StartInstall, bodyKind: 'optional-json', responses: { 202: AgentInstall }, error, errors: [400, 404, 409],
  }),
  install: defineRoute({
    method: 'GET', path: '/api/agents/:id/install', family, summary: "An agent install's progress and log.",
    params: agent, responses: { 200: AgentInstall }, error, errors: [404],
  }),
  testAgent: defineRoute({
    method: 'POST', path: '/api/agents/:id/test', family, summary: "Start the agent, initialize and session/new in an empty temp dir: who it is and whether it is ready.",
    params: agent, responses: { 200: AgentTest }, error, errors: [404],
  }),
  events: defineRoute({
    method: 'GET', path: '/api/events', family,
    summary: 'WebSocket (subprotocol assignment-desk.v1; browsers offer the token as subprotocol bearer.<token>): every new event after ?after=<seq>.',
    query: z.object({ after: z.string().optional() }), responses: { 101: 'empty' }, error, errors: [404],
  }),
  openapi: defineRoute({
    method: 'GET', path: '/api/openapi.json', family, summary: 'This contract as an OpenAPI 3.1 document.',
    responses: { 200: z.record(z.string(), z.unknown()) }, error,
  }),
} as const;
