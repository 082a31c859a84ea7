// A task's pull request (GitHub) or merge request (GitLab) from the board: open it (push the task's branch first) and
// read it again from its forge.
import { OpenPullRequest, PullRequest } from '../pull-request';
import { AddressFeedback } from '../pull-request-feedback';
import { TaskSummary } from '../task';
import { ById, routesOf } from './route';

const board = routesOf('Board API');

export const pullRequestRoutes = {
  open: board.post('/api/tasks/:id/pull-request', "Push a completed task's branch to its repository's remote (never forced) and open a pull request (GitHub) or merge request (GitLab) from it. " + 'Title and body default to the task\'s; base defaults to its base branch. Answers 201 when it opened one, 200 when the task already had one ' + 'or an open one from its branch was found on the forge. Forge refusals answer in the forge\'s own words (401/403/404 → 403/404, 422 → 409, no answer → 502).',
    { params: ById, body: OpenPullRequest, bodyKind: 'optional-json', responses: { 201: PullRequest, 200: PullRequest }, errors: [400, 403, 404, 409, 502, 503] }),
  refresh: board.post('/api/tasks/:id/pull-request/refresh', "Read the task's pull or merge request again from its forge: state (open, closed, merged), draft, checks and feedback (comments and failed checks).",
    { params: ById, responses: { 200: PullRequest }, errors: [403, 404, 409, 429, 502] }),
  address: board.post('/api/tasks/:id/pull-request/address', 'Start a follow-up turn addressing the feedback on the task\'s pull or merge request: the chosen comments (default: every unaddressed one) quoted with their file and line, ' + 'the failed checks (unless includeChecks is false) and the note. When the turn ends with a commit, the desk pushes it to the request\'s branch (never forced) and marks what it addressed; ' + 'with forge.replyWhenAddressed it replies in each thread. 404 no_pull_request without a request; 409 while the agent works.',
    { params: ById, body: AddressFeedback, bodyKind: 'optional-json', responses: { 202: TaskSummary }, errors: [400, 403, 404, 409, 429, 502] }),
} as const;
