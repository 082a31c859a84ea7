// The Agent Protocol v1 routes under /ap/v1/agent/: tasks, steps and artifacts. Unusable input answers 422 with `{message}`.
import { z } from 'zod';
import {
  ApArtifact, ApArtifactList, ApErrorBody, ApPageQuery, ApStep, ApStepList, ApStepRequest, ApTask, ApTaskList, ApTaskRequest,
} from '../agent-protocol';
import { routesOf, Segment } from './route';

const ap = routesOf('Agent Protocol', { error: ApErrorBody });
const base = '/ap/v1/agent/tasks';
const task = z.object({ taskId: Segment });

export const apRoutes = {
  createTask: ap.post(base, 'Create a task.', { body: ApTaskRequest, bodyKind: 'json', responses: { 200: ApTask }, errors: [415, 422] }),
  listTasks: ap.get(base, 'List tasks, page by page.', { query: ApPageQuery, responses: { 200: ApTaskList }, errors: [422] }),
  getTask: ap.get(`${base}/:taskId`, 'One task.', { params: task, responses: { 200: ApTask }, errors: [404] }),
  listSteps: ap.get(`${base}/:taskId/steps`, "A task's steps, page by page.",
    { params: task, query: ApPageQuery, responses: { 200: ApStepList }, errors: [404, 422] }),
  executeStep: ap.post(`${base}/:taskId/steps`, 'Run the next step (a body is optional).',
    { params: task, body: ApStepRequest, bodyKind: 'optional-json', responses: { 200: ApStep }, errors: [404, 409, 415, 422] }),
  getStep: ap.get(`${base}/:taskId/steps/:stepId`, 'One step.',
    { params: z.object({ taskId: Segment, stepId: Segment }), responses: { 200: ApStep }, errors: [404] }),
  listArtifacts: ap.get(`${base}/:taskId/artifacts`, "A task's artifacts, page by page.",
    { params: task, query: ApPageQuery, responses: { 200: ApArtifactList }, errors: [404, 422] }),
  uploadArtifact: ap.post(`${base}/:taskId/artifacts`, "Upload a file into the task's worktree.",
    { params: task, body: z.object({ file: z.file(), relative_path: z.string().optional() }), bodyKind: 'multipart', responses: { 200: ApArtifact }, errors: [404, 409, 413, 415, 422] }),
  downloadArtifact: ap.get(`${base}/:taskId/artifacts/:artifactId`, "Download an artifact's bytes.",
    { params: z.object({ taskId: Segment, artifactId: Segment }), responses: { 200: 'binary' }, errors: [404] }),
} as const;
