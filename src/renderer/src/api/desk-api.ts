// Client of the desk's HTTP API: every call names a route of the contract (src/shared/routes), which gives its
// method, path, parameters, body and answer type; nothing here restates a path or a shape.
import { aaRoutes, agentRoutes, apiRoutes, baseRoutes, devServerRoutes, proposalRoutes, pullRequestRoutes, reposRoutes, reviewRoutes } from '../../../shared/routes';
import { pathOf, type BodyInputOf, type QueryOf, type ResponseOf, type RouteDef } from '../../../shared/routes/route';
import { ApiError } from './api-error';

export interface Connection { endpoint: string; token: string }

/** What the board asks `/api/tasks` for; every field may be left out. */
export type TaskListRequest = Partial<QueryOf<typeof apiRoutes.listTasks>>;
/** A task the way the board submits it. */
export type NewTask = BodyInputOf<typeof aaRoutes.submit>;

/** What a call sends besides the route: path parameters, a query and a body, each the way the route declares it. */
interface CallInput<R extends RouteDef> {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: BodyInputOf<R>;
}

export type DeskApi = ReturnType<typeof createDeskApi>;

export function createDeskApi(connection: Connection, fetchImpl: typeof fetch = (...args) => fetch(...args)) {
  const base = connection.endpoint.replace(/\/$/, '');

  /** Calls a route; resolves with its answer, typed by the contract, or throws ApiError with the server's `{error, message}`. */
  async function call<R extends RouteDef>(route: R, input: CallInput<R> = {}): Promise<ResponseOf<R>> {
    const url = `${base}${pathOf(route, input.params)}${queryString(input.query ?? {})}`;
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: route.method,
        headers: {
          Authorization: `Bearer ${connection.token}`,
          Accept: 'application/json',
          ...(input.body !== undefined && { 'Content-Type': 'application/json' }),
        },
        ...(input.body !== undefined && { body: JSON.stringify(input.body) }),
      });
    } catch {
      throw new ApiError(0, 'network_error', `Cannot reach the desk at ${base}. Is it running?`);
    }
    // The server answers from the same route declaration; checking every list again here would cost a large desk's board its speed.
    let answer: ResponseOf<R>;
    try {
      answer = JSON.parse(await response.text());
    } catch {
      throw response.ok ? new ApiError(response.status, 'internal_error', 'The desk answered something that is not JSON.') : ApiError.fromBody(response.status, undefined);
    }
    if (!response.ok) throw ApiError.fromBody(response.status, answer);
    return answer;
  }

  return {
    connection,
    call,
    listTasks: (query: TaskListRequest = {}) => call(apiRoutes.listTasks, { query }),
    task: (id: string) => call(aaRoutes.detail, { params: { id } }),
    taskEvents: (id: string, after: number, limit = 5000) => call(apiRoutes.taskEvents, { params: { id }, query: { after, limit } }),
    submit: (task: NewTask) => call(aaRoutes.submit, { body: task }),
    cancel: (id: string) => call(aaRoutes.cancel, { params: { id } }),
    answer: (id: string, input: BodyInputOf<typeof aaRoutes.answer>) => call(aaRoutes.answer, { params: { id }, body: input }),
    followUp: (id: string, prompt: string) => call(aaRoutes.followUp, { params: { id }, body: { prompt } }),
    /** `confirmAttention`: the person saw the files that need attention (else such a task is refused, 409 attention_unconfirmed). */
    approve: (id: string, body?: BodyInputOf<typeof apiRoutes.approve>) => call(apiRoutes.approve, { params: { id }, ...(body !== undefined && { body }) }),
    reject: (id: string) => call(apiRoutes.reject, { params: { id } }),
    rerun: (id: string) => call(apiRoutes.rerun, { params: { id } }),
    acceptProposal: (id: string) => call(proposalRoutes.acceptProposal, { params: { id } }),
    dismissProposal: (id: string) => call(proposalRoutes.dismissProposal, { params: { id } }),
    diff: (id: string) => call(apiRoutes.diff, { params: { id } }),
    baseStatus: (id: string) => call(baseRoutes.baseStatus, { params: { id } }),
    updateFromBase: (id: string, strategy: 'merge' | 'rebase') => call(baseRoutes.update, { params: { id }, body: { strategy } }),
    resolveConflict: (id: string, how: BodyInputOf<typeof baseRoutes.resolve>) => call(baseRoutes.resolve, { params: { id }, body: how }),
    archive: (id: string) => call(reviewRoutes.archive, { params: { id } }),
    unarchive: (id: string) => call(reviewRoutes.unarchive, { params: { id } }),
    clearDone: () => call(reviewRoutes.clearDone),
    openPullRequest: (id: string, input: BodyInputOf<typeof pullRequestRoutes.open> = {}) => call(pullRequestRoutes.open, { params: { id }, body: input }),
    refreshPullRequest: (id: string) => call(pullRequestRoutes.refresh, { params: { id } }),
    addressFeedback: (id: string, input: BodyInputOf<typeof pullRequestRoutes.address> = {}) => call(pullRequestRoutes.address, { params: { id }, body: input }),
    viewed: (id: string) => call(reviewRoutes.viewed, { params: { id } }),
    setViewed: (id: string, mark: BodyInputOf<typeof reviewRoutes.setViewed>) => call(reviewRoutes.setViewed, { params: { id }, body: mark }),
    setDependencies: (id: string, dependencies: string[]) => call(apiRoutes.setDependencies, { params: { id }, body: { dependencies } }),
    addDependency: (id: string, dependency: string) => call(apiRoutes.addDependency, { params: { id }, body: { id: dependency } }),
    removeDependency: (id: string, dependency: string) => call(apiRoutes.removeDependency, { params: { id, dependency } }),
    agents: () => call(apiRoutes.agents),
    runners: () => call(apiRoutes.runners),
    diskUse: () => call(apiRoutes.diskUse),
    settings: () => call(apiRoutes.settings),
    updateSettings: (settings: BodyInputOf<typeof apiRoutes.updateSettings>) => call(apiRoutes.updateSettings, { body: settings }),
    policy: () => call(agentRoutes.policy),
    sandboxView: (agentId: string) => call(agentRoutes.sandboxView, { params: { id: agentId } }),
    savePolicy: (policy: BodyInputOf<typeof agentRoutes.savePolicy>) => call(agentRoutes.savePolicy, { body: policy }),
    alwaysAllowAnswers: () => call(agentRoutes.alwaysAllowAnswers),
    makeAlwaysAllowRule: (rule: BodyInputOf<typeof agentRoutes.makeAlwaysAllowRule>) => call(agentRoutes.makeAlwaysAllowRule, { body: rule }),
    repos: () => call(reposRoutes.list),
    addRepo: (repo: BodyInputOf<typeof reposRoutes.add>) => call(reposRoutes.add, { body: repo }),
    removeRepo: (name: string) => call(reposRoutes.remove, { params: { name } }),
    setRepoSetup: (name: string, setup: BodyInputOf<typeof reposRoutes.setSetup>) => call(reposRoutes.setSetup, { params: { name }, body: setup }),
    startDevServer: (id: string) => call(devServerRoutes.startDevServer, { params: { id } }),
    devServer: (id: string) => call(devServerRoutes.devServer, { params: { id } }),
    stopDevServer: (id: string) => call(devServerRoutes.stopDevServer, { params: { id } }),
  };
}

/** `?status=a,b&limit=200…` from a query; empty when nothing is asked. */
export function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
