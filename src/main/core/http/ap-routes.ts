// The Agent Protocol v1 under /ap/v1/agent/: tasks, steps and artifacts over the same core as the AA routes.
// Unusable bodies and queries answer 422, unknown tasks, steps and artifacts 404, each with `{message}`.
import { apRoutes } from '../../../shared/routes';
import type { RouteDef } from '../../../shared/routes/route';
import { createApArtifacts } from '../agent-protocol/ap-artifacts';
import { createAgentProtocol } from '../agent-protocol/ap-service';
import { createStepQueue } from '../agent-protocol/step-queue';
import type { EventBus } from '../events/event-bus';
import { createChangedFiles } from '../git/changed-files';
import { changedFilesAcross } from '../repos/changed-files-across';
import { createApRecordsRepo } from '../store/ap-records-repo';
import type { Db } from '../store/database';
import type { FullDiskGuard } from '../store/refuse-when-full';
import type { TaskService } from '../tasks/task-service';
import { DeskError, isDeskError } from '../../../shared/desk-error';
import { toHttpError } from './domain-errors';
import { sendDownload } from './file-download';
import { HttpError } from './http-error';
import { readMultipartFile } from './multipart-upload';
import type { RouteHandler, Router } from './router';

export const AP_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export interface AgentProtocolRouteDeps {
  tasks: TaskService;
  bus: EventBus;
  db: Db;
  repoRoot: string;
  /** The desk's repositories' top levels, the default first, when it has several: artifacts are read where each commit is. */
  repoRoots?: () => readonly string[];
  now?: () => Date;
  maxUploadBytes?: number;
  /** How long an upload waits for a starting task's worktree. */
  worktreeWaitMs?: number;
  /** How the desk reaches a worktree that is a layer (../sandbox/task-layers.ts). */
  reachOf?(worktree: string): Promise<((path: string) => string) | undefined>;
  /** Refuses the records' writes on a full disk as `disk_full`. */
  guard?: FullDiskGuard;
}

export function addAgentProtocolRoutes(router: Router, deps: AgentProtocolRouteDeps): void {
  const { tasks, db, repoRoot } = deps;
  const now = deps.now ?? (() => new Date());
  const created = createApRecordsRepo(db, repoRoot);
  const records = deps.guard ? deps.guard(created, 'the Agent Protocol records') : created;
  const queue = createStepQueue({ tasks, records, bus: deps.bus, now });
  // Listens as long as the core lives, and sends steps a stopped desk left queued once their turn comes.
  queue.start();
  const protocol = createAgentProtocol({
    queue,
    tasks,
    records,
    artifacts: createApArtifacts({
      tasks, records, files: deps.repoRoots ? changedFilesAcross(deps.repoRoots) : createChangedFiles(repoRoot), bus: deps.bus, now,
      ...(deps.worktreeWaitMs !== undefined && { worktreeWaitMs: deps.worktreeWaitMs }),
      ...(deps.reachOf && { reachOf: deps.reachOf }),
    }),
  });
  router
    .on(apRoutes.createTask, ap(async ({ body }) => [200, await protocol.createTask(await body())]))
    .on(apRoutes.listTasks, ap(async ({ query }) => [200, await protocol.listTasks(query())]))
    .on(apRoutes.getTask, ap(async ({ params }) => [200, await protocol.getTask(params.taskId)]))
    .on(apRoutes.listSteps, ap(async ({ params, query }) => [200, await protocol.listSteps(params.taskId, query())]))
    .on(apRoutes.executeStep, ap(async ({ body, params }) => {
      tasks.detail(params.taskId); // an unknown task is a 404 whatever the body says
      return [200, await protocol.executeStep(params.taskId, await body())];
    }))
    .on(apRoutes.getStep, ap(async ({ params }) => [200, await protocol.getStep(params.taskId, params.stepId)]))
    .on(apRoutes.listArtifacts, ap(async ({ params, query }) => [200, await protocol.listArtifacts(params.taskId, query())]))
    .on(apRoutes.uploadArtifact, ap(async ({ request, params }) => {
      tasks.detail(params.taskId); // before reading the upload, which may be large
      const form = await readMultipartFile(request, { fileField: 'file', maxFileBytes: deps.maxUploadBytes ?? AP_MAX_UPLOAD_BYTES });
      if (!form.file) throw new HttpError(422, 'validation_error', 'file: required: send the file as the multipart field "file".', { field: 'file' });
      const relativePath = form.fields.relative_path;
      return [200, await protocol.uploadArtifact(params.taskId, { fileName: form.file.fileName, data: form.file.data, ...(relativePath !== undefined && { relativePath }) })];
    }))
    .on(apRoutes.downloadArtifact, ap(async ({ request, response, params }) => {
      const { fileName, data } = await protocol.readArtifact(params.taskId, params.artifactId);
      sendDownload(request, response, fileName, data);
      return undefined;
    }));
}

/** Answers the protocol's refusals with the one mapping; anything unexpected goes on unchanged so the server logs it as it was. */
function ap<R extends RouteDef>(handler: RouteHandler<R>): RouteHandler<R> {
  return async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      const mapped = toHttpError(inApTerms(error), 'ap');
      throw mapped.status >= 500 ? error : mapped;
    }
  };
}

/** The protocol names the agent `additional_input.agent`, so a refusal of it says that field. */
function inApTerms(error: unknown): unknown {
  if (!isDeskError(error, 'unknown_agent')) return error;
  const field = `additional_input.${String(error.details?.field ?? 'agent')}`;
  return new DeskError(error.kind, error.code, `additional_input.${error.message}`, { ...error.details, field });
}
