// A task's dev server over HTTP: start it in the task's worktree (and sandbox), read its state, stop it.
import { z } from 'zod';
import { ApiErrorBody } from '../api-error';
import { DevServerAnswer, DevServerState } from '../dev-server';
import { defineRoute, Segment } from './route';

const family = 'Board API';
const task = z.object({ id: Segment });
const error = ApiErrorBody;

export const devServerRoutes = {
  startDevServer: defineRoute({
    method: 'POST', path: '/api/tasks/:id/dev-server', family,
    summary: "Start the repository's dev server (`.desk/config.json` `devServer`) in the task's worktree, inside its sandbox, on a free port of 127.0.0.1 (201); one already running answers as it is (200).",
    params: task, responses: { 200: DevServerState, 201: DevServerState }, error, errors: [404, 409, 503],
  }),
  devServer: defineRoute({
    method: 'GET', path: '/api/tasks/:id/dev-server', family,
    summary: "The task's dev server: starting, running (with its link once the port answers) or exited; null when it never started.",
    params: task, responses: { 200: DevServerAnswer }, error, errors: [404],
  }),
  stopDevServer: defineRoute({
    method: 'DELETE', path: '/api/tasks/:id/dev-server', family,
    summary: "Stop the task's dev server (every process it started) and free its port; answers its final state, or null when none ran.",
    params: task, responses: { 200: DevServerAnswer }, error, errors: [404],
  }),
} as const;
