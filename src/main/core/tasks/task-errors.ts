// Domain errors of the task service; the HTTP layer maps each code to a status.

export class UnknownTaskError extends Error {
  readonly code = 'unknown_task';
  constructor(readonly taskId: string) {
    super(`No task with id "${taskId}"`);
  }
}

export class CycleError extends Error {
  readonly code = 'dependency_cycle';
  constructor(readonly cycle: string[]) {
    super(`These dependencies would close a cycle: ${cycle.join(' → ')}`);
  }
}

export class UnknownAgentError extends Error {
  readonly code = 'unknown_agent';
  constructor(readonly agentId: string, readonly known: string[]) {
    super(`No agent "${agentId}"; known agents: ${known.join(', ')}`);
  }
}

/** The task is in a state where this request makes no sense now (e.g. a follow-up while the agent works). */
export class TaskBusyError extends Error {
  readonly code = 'task_busy';
}
