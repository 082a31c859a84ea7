// The Agent Protocol v1 under /ap/v1/agent/: tasks, steps and artifacts over the same core as the AA routes.
// Unusable bodies and queries answer 422, unknown tasks, steps and artifacts 404, each with `{message}`.
import type { IncomingMessage } from 'node:http';
import { ApPageQuery, ApStepRequest, ApTaskRequest } from '../../../shared/agent-protocol';
import { createApArtifacts } from '../agent-protocol/ap-artifacts';
import { createAgentProtocol } from '../agent-protocol/ap-service';
import { createStepQueue } from '../agent-protocol/step-queue';
import type { EventBus } from '../events/event-bus';
import { createChangedFiles } from '../git/changed-files';
import { createApRecordsRepo } from '../store/ap-records-repo';
import type { Db } from '../store/database';
import { createTurnsRepo } from '../store/turns-repo';
import type { TaskService } from '../tasks/task-service';
import { DeskError, isDeskError } from '../../../shared/desk-error';
import { toHttpError } from './domain-errors';
import { sendDownload } from './file-download';
import { HttpError } from './http-error';
import { readMultipartFile } from './multipart-upload';
import { parseBody, readJsonBody } from './request-body';
import type { RouteHandler, Router } from './router';

export const AP_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export interface AgentProtocolRouteDeps {
  tasks: TaskService;
  bus: EventBus;
  db: Db;
  repoRoot: string;
  now?: () => Date;
  maxUploadBytes?: number;
  /** How long an upload waits for a starting task's worktree. */
  worktreeWaitMs?: number;
}

export function addAgentProtocolRoutes(router: Router, deps: AgentProtocolRouteDeps): void {
  const { tasks, db, repoRoot } = deps;
  const now = deps.now ?? (() => new Date());
  const records = createApRecordsRepo(db, repoRoot);
  const queue = createStepQueue({ tasks, records, bus: deps.bus, now });
  // Listens as long as the core lives, and sends steps a stopped desk left queued once their turn comes.
  queue.start();
  const protocol = createAgentProtocol({
    queue,
    tasks,
    turns: createTurnsRepo(db, repoRoot),
    records,
    artifacts: createApArtifacts({
      tasks, records, files: createChangedFiles(repoRoot), bus: deps.bus, now,
      ...(deps.worktreeWaitMs !== undefined && { worktreeWaitMs: deps.worktreeWaitMs }),
    }),
  });
  const base = '/ap/v1/agent/tasks';
  const page = (url: URL) => parseBody(ApPageQuery, Object.fromEntries(url.searchParams));
  const id = (params: Record<string, string>) => params.taskId as string;

  router
    .on('POST', base, ap(async ({ request }) => [200, await protocol.createTask(parseBody(ApTaskRequest, await readJsonBody(request)))]))
    .on('GET', base, ap(async ({ url }) => [200, await protocol.listTasks(page(url))]))
    .on('GET', `${base}/:taskId`, ap(async ({ params }) => [200, await protocol.getTask(id(params))]))
    .on('GET', `${base}/:taskId/steps`, ap(async ({ params, url }) => [200, await protocol.listSteps(id(params), page(url))]))
    .on('POST', `${base}/:taskId/steps`, ap(async ({ request, params }) => {
      tasks.detail(id(params)); // an unknown task is a 404 whatever the body says
      return [200, await protocol.executeStep(id(params), parseBody(ApStepRequest, await readOptionalJson(request)))];
    }))
    .on('GET', `${base}/:taskId/steps/:stepId`, ap(async ({ params }) => [200, await protocol.getStep(id(params), params.stepId as string)]))
    .on('GET', `${base}/:taskId/artifacts`, ap(async ({ params, url }) => [200, await protocol.listArtifacts(id(params), page(url))]))
    .on('POST', `${base}/:taskId/artifacts`, ap(async ({ request, params }) => {
      tasks.detail(id(params)); // before reading the upload, which may be large
      const form = await readMultipartFile(request, { fileField: 'file', maxFileBytes: deps.maxUploadBytes ?? AP_MAX_UPLOAD_BYTES });
      if (!form.file) throw new HttpError(422, 'validation_error', 'file: required: send the file as the multipart field "file".', { field: 'file' });
      const relativePath = form.fields.relative_path;
      return [200, await protocol.uploadArtifact(id(params), { fileName: form.file.fileName, data: form.file.data, ...(relativePath !== undefined && { relativePath }) })];
    }))
    .on('GET', `${base}/:taskId/artifacts/:artifactId`, ap(async ({ request, response, params }) => {
      const { fileName, data } = await protocol.readArtifact(id(params), params.artifactId as string);
      sendDownload(request, response, fileName, data);
      return undefined;
    }));
}

/** AP clients may send a step with no body at all: that is a step without input. */
async function readOptionalJson(request: IncomingMessage): Promise<unknown> {
  const length = request.headers['content-length'];
  if (request.headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0)) return {};
  return readJsonBody(request);
}

/** Answers the protocol's refusals with the one mapping; anything unexpected goes on unchanged so the server logs it as it was. */
function ap(handler: RouteHandler): RouteHandler {
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
