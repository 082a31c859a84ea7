// A permission the agent waits for: what it wants to do, and one button per option it offers.
import type { OpenQuestion } from '../../../../shared/questions';
import { desk } from '../../state/store';

function toolCallTitle(toolCall: unknown): string | undefined {
  const title = (toolCall as { title?: unknown } | undefined)?.title;
  return typeof title === 'string' ? title : undefined;
}

export function PermissionQuestion({ question }: { question: OpenQuestion }) {
  const title = toolCallTitle(question.toolCall);
  return (
    <div className="question" role="group" aria-label="The agent asks permission">
      <p className="question-label">The agent asks permission</p>
      <p className="question-prompt">{question.prompt}</p>
      {title && title !== question.prompt && <p className="question-detail">{title}</p>}
      <div className="question-options">
        {(question.options ?? []).map((option) => (
          <button
            key={option.optionId}
            type="button"
            className={option.kind.startsWith('allow') ? 'primary' : ''}
            onClick={() => void desk().answerQuestion(question.taskId, { questionId: question.id, optionId: option.optionId })}
          >
            {option.name}
          </button>
        ))}
      </div>
    </div>
  );
}
