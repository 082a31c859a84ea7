// A task's dev server over HTTP: start it in the task's worktree (and sandbox), read its state, stop it.
import { DevServerAnswer, DevServerState } from '../dev-server';
import { ById, routesOf } from './route';

const board = routesOf('Board API');

export const devServerRoutes = {
  startDevServer: board.post('/api/tasks/:id/dev-server', "Start the repository's dev server (`.desk/config.json` `devServer`) in the task's worktree, inside its sandbox, on a free port of 127.0.0.1 (201); one already running answers as it is (200).",
    { params: ById, responses: { 200: DevServerState, 201: DevServerState }, errors: [404, 409, 503] }),
  devServer: board.get('/api/tasks/:id/dev-server', "The task's dev server: starting, running (with its link once the port answers) or exited; null when it never started.",
    { params: ById, responses: { 200: DevServerAnswer }, errors: [404] }),
  stopDevServer: board.delete('/api/tasks/:id/dev-server', "Stop the task's dev server (every process it started) and free its port; answers its final state, or null when none ran.",
    { params: ById, responses: { 200: DevServerAnswer }, errors: [404] }),
} as const;
