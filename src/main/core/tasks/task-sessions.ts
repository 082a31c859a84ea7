// What a person says to a task's agent while it runs: the answer to its open question, the session mode, a config
// option. What the agent's own protocol refuses reaches the person as the agent's refusal.
import { isDeskError } from '../../../shared/desk-error';
import type { OpenQuestion } from '../../../shared/questions';
import type { AnswerInput } from '../../../shared/task';
import { agentRefused } from './task-errors';
import type { TaskRecords } from './task-records';
import type { TaskRuns } from './task-runs';

export interface TaskSessions {
  /** Answers the task's open question; the first answer wins. */
  answer(id: string, input: AnswerInput): OpenQuestion;
  setMode(id: string, modeId: string): Promise<void>;
  setConfigOption(id: string, configId: string, value: string | boolean): Promise<void>;
}

export interface TaskSessionsDeps {
  records: Pick<TaskRecords, 'questions' | 'mustGet'>;
  runs: Pick<TaskRuns, 'liveSession'>;
}

/** A JSON-RPC error or a broken answer from the agent becomes `agent_refused`; the desk's own errors stay as they are. */
function refusedByAgent(error: unknown): never {
  throw isDeskError(error) ? error : agentRefused(error);
}

export function createTaskSessions(deps: TaskSessionsDeps): TaskSessions {
  const { liveSession } = deps.runs;
  return {
    answer(id, input) {
      deps.records.mustGet(id);
      const { questionId, ...answer } = input;
      return deps.records.questions.answer(id, questionId, answer);
    },
    setMode: async (id, modeId) => liveSession(id).setMode(modeId).catch(refusedByAgent),
    setConfigOption: async (id, configId, value) => liveSession(id).setConfigOption(configId, value).catch(refusedByAgent),
  };
}
