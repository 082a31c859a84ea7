// A permission the agent waits for: what it wants to do (the diff of an edit, the command and where it runs), and one
// button per option it offers.
import { useMemo } from 'react';
import type { OpenQuestion } from '../../../../shared/questions';
import { desk, useDesk } from '../../state/store';
import { MiniDiff } from '../stream/tool-call';
import { relativeText, shortPath, WorktreeContext } from '../stream/worktree-path';
import { mergeToolCall, questionSubject } from './question-subject';

function toolCallTitle(toolCall: unknown): string | undefined {
  const title = (toolCall as { title?: unknown } | undefined)?.title;
  return typeof title === 'string' ? title : undefined;
}

function toolCallIdOf(toolCall: unknown): string | undefined {
  const id = (toolCall as { toolCallId?: unknown } | undefined)?.toolCallId;
  return typeof id === 'string' ? id : undefined;
}

/** The tool call the stream shows under the same id (agents such as claude-code-acp describe it only there). */
function useStreamedToolCall(taskId: string, toolCallId: string | undefined): Record<string, unknown> | undefined {
  // Re-read when the stream changes: the tool call may be announced just before or after the question arrives.
  const version = useDesk((state) => state.streamVersion[taskId] ?? 0);
  return useMemo(() => {
    const stream = desk().streamOf(taskId);
    const index = toolCallId === undefined ? undefined : stream?.toolIndex.get(toolCallId);
    const item = index === undefined ? undefined : stream?.items[index];
    return item?.kind === 'tool' ? { ...item } : undefined;
  }, [taskId, toolCallId, version]);
}

function whereItRuns(cwd: string | undefined, worktree: string | undefined): string {
  const place = cwd === undefined ? '.' : shortPath(cwd, worktree);
  return place === '.' ? "the task's worktree" : place;
}

export function PermissionQuestion({ question }: { question: OpenQuestion }) {
  const worktree = useDesk((state) => state.details[question.taskId]?.worktreePath);
  const streamed = useStreamedToolCall(question.taskId, toolCallIdOf(question.toolCall));
  const subject = useMemo(() => questionSubject(mergeToolCall(question.toolCall, streamed)), [question.toolCall, streamed]);
  const title = toolCallTitle(question.toolCall);
  const prompt = relativeText(question.prompt, worktree);
  return (
    <WorktreeContext value={worktree}>
      <div className="question" role="group" aria-label="The agent asks permission">
        <p className="question-label">The agent asks permission</p>
        <p className="question-prompt">{prompt}</p>
        {title && relativeText(title, worktree) !== prompt && <p className="question-detail">{relativeText(title, worktree)}</p>}
        {subject.command && (
          <div className="question-command" role="group" aria-label="Command to run">
            <code>{relativeText(subject.command.line, worktree)}</code>
            <span className="question-cwd">in {whereItRuns(subject.command.cwd, worktree)}</span>
          </div>
        )}
        {subject.changes.length > 0 && (
          <div className="question-changes" role="group" aria-label="Proposed change">
            {subject.changes.map((change, index) => <MiniDiff key={index} path={change.path} oldText={change.oldText} newText={change.newText} />)}
          </div>
        )}
        <div className="question-options">
          {(question.options ?? []).map((option) => (
            <button
              key={option.optionId}
              type="button"
              className={option.kind.startsWith('allow') ? 'primary' : ''}
              title={option.kind === 'allow_always' ? 'The desk allows this kind of request for the rest of this task; the agent is told "allow once" and keeps nothing' : undefined}
              onClick={() => void desk().answerQuestion(question.taskId, { questionId: question.id, optionId: option.optionId })}
            >
              {option.name}
            </button>
          ))}
        </div>
      </div>
    </WorktreeContext>
  );
}
