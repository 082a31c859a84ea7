// Accepting or dismissing a task an agent proposed (see tasks/task-proposals.ts).
import { proposalRoutes } from '../../../shared/routes';
import type { TaskService } from '../tasks/task-service';
import type { Router } from './router';

export function addProposalRoutes(router: Router, deps: { tasks: TaskService }): void {
  const { tasks } = deps;
  router
    .on(proposalRoutes.acceptProposal, async ({ params }) => [200, tasks.summary((await tasks.proposals.accept(params.id)).id)])
    .on(proposalRoutes.dismissProposal, async ({ params }) => [200, tasks.summary((await tasks.proposals.dismiss(params.id)).id)]);
}
