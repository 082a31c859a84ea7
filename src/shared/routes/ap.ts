// The Agent Protocol v1 routes under /ap/v1/agent/: tasks, steps and artifacts. Unusable input answers 422 with `{message}`.
import { z } from 'zod';
import {
  ApArtifact, ApArtifactList, ApErrorBody, ApPageQuery, ApStep, ApStepList, ApStepRequest, ApTask, ApTaskList, ApTaskRequest,
} from '../agent-protocol';
import { defineRoute, Segment } from './route';

const family = 'Agent Protocol';
const base = '/ap/v1/agent/tasks';
const task = z.object({ taskId: Segment });
const error = ApErrorBody;

export const apRoutes = {
  createTask: defineRoute({
    method: 'POST', path: base, family, summary: 'Create a task.',
    body: ApTaskRequest, bodyKind: 'json', responses: { 200: ApTask }, error, errors: [415, 422],
  }),
  listTasks: defineRoute({
    method: 'GET', path: base, family, summary: 'List tasks, page by page.',
    query: ApPageQuery, responses: { 200: ApTaskList }, error, errors: [422],
  }),
  getTask: defineRoute({
    method: 'GET', path: `${base}/:taskId`, family, summary: 'One task.',
    params: task, responses: { 200: ApTask }, error, errors: [404],
  }),
  listSteps: defineRoute({
    method: 'GET', path: `${base}/:taskId/steps`, family, summary: "A task's steps, page by page.",
    params: task, query: ApPageQuery, responses: { 200: ApStepList }, error, errors: [404, 422],
  }),
  executeStep: defineRoute({
    method: 'POST', path: `${base}/:taskId/steps`, family, summary: 'Run the next step (a body is optional).',
    params: task, body: ApStepRequest, bodyKind: 'optional-json', responses: { 200: ApStep }, error, errors: [404, 409, 415, 422],
  }),
  getStep: defineRoute({
    method: 'GET', path: `${base}/:taskId/steps/:stepId`, family, summary: 'One step.',
    params: z.object({ taskId: Segment, stepId: Segment }), responses: { 200: ApStep }, error, errors: [404],
  }),
  listArtifacts: defineRoute({
    method: 'GET', path: `${base}/:taskId/artifacts`, family, summary: "A task's artifacts, page by page.",
    params: task, query: ApPageQuery, responses: { 200: ApArtifactList }, error, errors: [404, 422],
  }),
  uploadArtifact: defineRoute({
    method: 'POST', path: `${base}/:taskId/artifacts`, family, summary: "Upload a file into the task's worktree.",
    params: task, body: z.object({ file: z.file(), relative_path: z.string().optional() }), bodyKind: 'multipart',
    responses: { 200: ApArtifact }, error, errors: [404, 409, 413, 415, 422],
  }),
  downloadArtifact: defineRoute({
    method: 'GET', path: `${base}/:taskId/artifacts/:artifactId`, family, summary: "Download an artifact's bytes.",
    params: z.object({ taskId: Segment, artifactId: Segment }), responses: { 200: 'binary' }, error, errors: [404],
  }),
} as const;
