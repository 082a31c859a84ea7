// The task's chat: open questions first (answering resumes the agent), then the follow-up box.
import { useDesk } from '../../state/store';
import { ElicitationForm } from './elicitation-form';
import { FollowUp } from './follow-up';
import { PermissionQuestion } from './permission-question';

export function ChatPanel({ taskId }: { taskId: string }) {
  const questions = useDesk((state) => state.tasks[taskId]?.openQuestions);
  return (
    <div className="chat">
      {questions?.map((question) => question.kind === 'permission'
        ? <PermissionQuestion key={question.id} question={question} />
        : <ElicitationForm key={question.id} question={question} />)}
      <FollowUp taskId={taskId} />
    </div>
  );
}
