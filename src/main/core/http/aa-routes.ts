// The Agent Assignment protocol: submit, list, inspect and cancel tasks; plus answering, follow-ups and session settings.
import { aaRoutes } from '../../../shared/routes';
import type { TaskDetail, TaskSummary } from '../../../shared/task';
import { refuseDeleteOfFinished } from '../tasks/delete-refusal';
import type { TaskService } from '../tasks/task-service';
import { answerList, createListCache } from './list-answer';
import type { Router } from './router';

export function addAgentAssignmentRoutes(router: Router, deps: { tasks: TaskService; serverName: string }): void {
  const { tasks } = deps;
  // The whole list, as the protocol wants it, serialized once per change of any task.
  const everything = createListCache();
  const serverName = JSON.stringify(deps.serverName);
  const detail = async ({ params }: { params: { id: string } }) => [200, tasks.detail(params.id)] as [number, TaskDetail];
  const cancel = async ({ params }: { params: { id: string } }) => {
    refuseDeleteOfFinished(tasks.summary(params.id));
    await tasks.cancel(params.id);
    return [200, tasks.summary(params.id)] as [number, TaskSummary];
  };

  router
    .on(aaRoutes.submit, async ({ body }) => {
      const submission = await body();
      await tasks.submit(submission);
      return [202, tasks.summary(submission.id)];
    })
    .on(aaRoutes.list, async ({ request }) => {
      const { version, json } = tasks.listing.json();
      // Assembled from cached JSON; its shape is ServerInfo: { serverName, tasks }.
      const list = everything.get(version, () => `{"serverName":${serverName},"tasks":${json}}`);
      return [200, await answerList(request, list)];
    })
    .on(aaRoutes.cancelByBody, async ({ body }) => {
      const { id } = await body();
      refuseDeleteOfFinished(tasks.summary(id));
      await tasks.cancel(id);
      return [200, tasks.summary(id)];
    })
    .on(aaRoutes.detail, detail)
    .on(aaRoutes.cancel, cancel)
    .on(aaRoutes.answer, async ({ body, params }) => {
      const question = tasks.answer(params.id, await body());
      return [200, { answered: question, task: tasks.summary(params.id) }];
    })
    .on(aaRoutes.followUp, async ({ body, params }) => {
      const { prompt } = await body();
      await tasks.followUp(params.id, prompt);
      return [202, tasks.summary(params.id)];
    })
    .on(aaRoutes.setMode, async ({ body, params }) => {
      const { modeId } = await body();
      await tasks.setMode(params.id, modeId);
      return [200, { modeId }];
    })
    .on(aaRoutes.setConfig, async ({ body, params }) => {
      const { configId, value } = await body();
      await tasks.setConfigOption(params.id, configId, value);
      return [200, { configId, value }];
    })
    .on(aaRoutes.detailShort, detail)
    .on(aaRoutes.cancelShort, cancel);
}
