// The schemas the OpenAPI document names under components.schemas: the nouns a client generator and a reader look
// for ("the Task", "the Event"). Every other schema stays inline where a route uses it.
import { z } from 'zod';
import { ApArtifact, ApErrorBody, ApPagination, ApStep, ApTask } from '../../../shared/agent-protocol';
import { AgentInfo, AgentInstall, AgentLogin, AgentTest, LoginHelp } from '../../../shared/agents';
import { ApiErrorBody } from '../../../shared/api-error';
import { BaseStatus } from '../../../shared/base-update';
import { DevServerConfig, DevServerState } from '../../../shared/dev-server';
import { AgentUpdate, EventEnvelope, EventPage, TaskEvent } from '../../../shared/events';
import {
  AgentId, AgentOverrides, AgentRequestBody, AgentRequestStatus, Capability, CapabilityMode, GovernanceRecord, PolicyDefaults, PolicyInput, PolicyView,
} from '../../../shared/governance';
import { OpenQuestion, QuestionAnswer } from '../../../shared/questions';
import { RepoInfo, RepoName } from '../../../shared/repos';
import { DeskSettings, FileDiff, TaskDiff } from '../../../shared/review';
import { ContainerLimits, RunnerState, RunnersView } from '../../../shared/runners';
import { GrantedPath, HostPattern, SandboxStatus } from '../../../shared/sandbox';
import { TaskPage } from '../../../shared/task-list';
import {
  AnswerInput, PushOutcome, ReviewState, ServerInfo, SubmitTask, TaskActivity, TaskConflict, TaskDetail, TaskId, TaskStatus, TaskSummary, Turn,
  UnmetDependency, NoChanges, CheckResult, AttemptView, AttemptBrief,
} from '../../../shared/task';
import { PullRequest, PullRequestChecks } from '../../../shared/pull-request';

/** Component name → schema. A name is the contract's own, except where the contract's is a mouthful (TaskDetail is "Task"). */
const NAMED: Record<string, z.ZodType> = {
  Task: TaskDetail, TaskId, TaskSummary, TaskStatus, ReviewState, Turn, UnmetDependency, TaskConflict, TaskActivity, PushOutcome,
  SubmitTask, Answer: AnswerInput, ServerInfo, TaskPage,
  Question: OpenQuestion, QuestionAnswer,
  Event: TaskEvent, EventEnvelope, EventPage, AgentUpdate,
  Error: ApiErrorBody,
  Policy: PolicyInput, PolicyDefaults, AgentPolicyOverrides: AgentOverrides, PolicyView, Capability, CapabilityMode, AgentId, GovernanceRecord, AgentRequest: AgentRequestBody, AgentRequestStatus,
  Agent: AgentInfo, AgentInstall, AgentLogin, AgentTest, LoginHelp,
  TaskDiff, FileDiff, BaseStatus, DeskSettings, Repo: RepoInfo, RepoName, RunnerState, RunnersView, ContainerLimits, SandboxStatus, HostPattern, GrantedPath,
  ApTask, ApStep, ApArtifact, ApPagination, ApError: ApErrorBody,
  PullRequest, PullRequestChecks, NoChanges, CheckResult, Attempt: AttemptView, AttemptBrief,
  DevServer: DevServerState, DevServerConfig,
};

/** A fresh registry of the named schemas, for zod's JSON Schema conversion to lift them out as `$defs`. */
export function namedSchemas(): z.core.$ZodRegistry<{ id: string }> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(NAMED)) registry.add(schema, { id });
  return registry;
}
