// Typed client of the desk's HTTP API: one function per route, typed by the src/shared contract.
// Only types are imported from src/shared, so zod stays out of the renderer bundle.
import type { AgentsResponse } from '../../../shared/agents';
import type { EventPage } from '../../../shared/events';
import type { PolicyView } from '../../../shared/governance';
import type { DeskSettings, TaskDiff, UpdateSettings } from '../../../shared/review';
import type { AnswerInput, TaskDetail, TaskSummary } from '../../../shared/task';
import type { TaskListQuery, TaskPage } from '../../../shared/task-list';
import { ApiError } from './api-error';

export interface Connection { endpoint: string; token: string }

/** What the board asks `/api/tasks` for; every field may be left out. */
export type TaskListRequest = Partial<TaskListQuery>;
export interface NewTask { id: string; prompt: string; dependencies: string[]; agent?: string }

export type DeskApi = ReturnType<typeof createDeskApi>;

export function createDeskApi(connection: Connection, fetchImpl: typeof fetch = (...args) => fetch(...args)) {
  const base = connection.endpoint.replace(/\/$/, '');
  const path = (id: string) => encodeURIComponent(id);

  async function call<T>(method: string, route: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetchImpl(`${base}${route}`, {
        method,
        headers: {
          Authorization: `Bearer ${connection.token}`,
          Accept: 'application/json',
          ...(body !== undefined && { 'Content-Type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ApiError(0, 'network_error', `Cannot reach the desk at ${base}. Is it running?`);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!response.ok) throw ApiError.fromBody(response.status, parsed);
    return parsed as T;
  }

  return {
    connection,
    listTasks: (query: TaskListRequest = {}) => call<TaskPage>('GET', `/api/tasks${queryString(query)}`),
    task: (id: string) => call<TaskDetail>('GET', `/tasks/${path(id)}`),
    taskEvents: (id: string, after: number, limit = 5000) =>
      call<EventPage>('GET', `/api/tasks/${path(id)}/events?after=${after}&limit=${limit}`),
    submit: (task: NewTask) => call<TaskSummary>('POST', '/', task),
    cancel: (id: string) => call<TaskSummary>('DELETE', `/tasks/${path(id)}`),
    answer: (id: string, input: AnswerInput) => call<unknown>('POST', `/tasks/${path(id)}/input`, input),
    followUp: (id: string, prompt: string) => call<unknown>('POST', `/tasks/${path(id)}/prompt`, { prompt }),
    approve: (id: string) => call<TaskSummary>('POST', `/tasks/${path(id)}/approve`),
    reject: (id: string) => call<TaskSummary>('POST', `/tasks/${path(id)}/reject`),
    rerun: (id: string) => call<TaskSummary>('POST', `/tasks/${path(id)}/rerun`),
    diff: (id: string) => call<TaskDiff>('GET', `/api/tasks/${path(id)}/diff`),
    setDependencies: (id: string, dependencies: string[]) =>
      call<TaskDetail>('PUT', `/tasks/${path(id)}/dependencies`, { dependencies }),
    addDependency: (id: string, dependency: string) =>
      call<TaskDetail>('POST', `/tasks/${path(id)}/dependencies`, { id: dependency }),
    removeDependency: (id: string, dependency: string) =>
      call<TaskDetail>('DELETE', `/tasks/${path(id)}/dependencies/${path(dependency)}`),
    agents: () => call<AgentsResponse>('GET', '/api/agents'),
    settings: () => call<DeskSettings>('GET', '/api/settings'),
    updateSettings: (settings: UpdateSettings) => call<DeskSettings>('PUT', '/api/settings', settings),
    policy: () => call<PolicyView>('GET', '/api/governance/policy'),
    savePolicy: (policy: unknown) => call<PolicyView>('PUT', '/api/governance/policy', policy),
  };
}

/** `?status=a,b&limit=200…` from a list query; empty when nothing is asked. */
export function queryString(query: TaskListRequest): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
