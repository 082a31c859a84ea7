// The Agent Assignment protocol: submit, list, inspect and cancel tasks; plus answering, follow-ups and session settings.
import { AnswerInput, CancelTask, FollowUp, SetConfigOption, SetMode, SubmitTask } from '../../../shared/task';
import type { TaskService } from '../tasks/task-service';
import { answerList, createListCache } from './list-answer';
import { parseBody, readJsonBody } from './request-body';
import type { RouteHandler, Router } from './router';

export function addAgentAssignmentRoutes(router: Router, deps: { tasks: TaskService; serverName: string }): void {
  const { tasks } = deps;
  // The whole list, as the protocol wants it, serialized once per change of any task.
  const everything = createListCache();
  const serverName = JSON.stringify(deps.serverName);
  const detail: RouteHandler = async ({ params }) => [200, tasks.detail(params.id as string)];
  const cancel: RouteHandler = async ({ params }) => {
    await tasks.cancel(params.id as string);
    return [200, tasks.summary(params.id as string)];
  };

  router
    .on('POST', '/', async ({ request }) => {
      const submission = parseBody(SubmitTask, await readJsonBody(request));
      await tasks.submit(submission);
      return [202, tasks.summary(submission.id)];
    })
    .on('GET', '/', async ({ request }) => {
      const { version, json } = tasks.listing.json();
      // Assembled from cached JSON; its shape is ServerInfo: { serverName, tasks }.
      const list = everything.get(version, () => `{"serverName":${serverName},"tasks":${json}}`);
      return [200, await answerList(request, list)];
    })
    .on('DELETE', '/', async ({ request }) => {
      const { id } = parseBody(CancelTask, await readJsonBody(request));
      await tasks.cancel(id);
      return [200, tasks.summary(id)];
    })
    .on('GET', '/tasks/:id', detail)
    .on('DELETE', '/tasks/:id', cancel)
    .on('POST', '/tasks/:id/input', async ({ request, params }) => {
      const answer = parseBody(AnswerInput, await readJsonBody(request));
      const question = tasks.answer(params.id as string, answer);
      return [200, { answered: question, task: tasks.summary(params.id as string) }];
    })
    .on('POST', '/tasks/:id/prompt', async ({ request, params }) => {
      const { prompt } = parseBody(FollowUp, await readJsonBody(request));
      await tasks.followUp(params.id as string, prompt);
      return [202, tasks.summary(params.id as string)];
    })
    .on('POST', '/tasks/:id/mode', async ({ request, params }) => {
      const { modeId } = parseBody(SetMode, await readJsonBody(request));
      await tasks.setMode(params.id as string, modeId);
      return [200, { modeId }];
    })
    .on('POST', '/tasks/:id/config', async ({ request, params }) => {
      const { configId, value } = parseBody(SetConfigOption, await readJsonBody(request));
      await tasks.setConfigOption(params.id as string, configId, value);
      return [200, { configId, value }];
    })
    .on('GET', '/:id', detail)
    .on('DELETE', '/:id', cancel);
}
