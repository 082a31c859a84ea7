// The task view's header: title, status, agent, branch, why it waits or failed, and native extras
// (reveal the worktree, open in the editor) only where the desktop app provides them.
import { deskBridge } from '../../../shared/desk-bridge';
import { STATUS_LABELS } from '../../../shared/task-status-labels';
import { Elapsed } from '../board/elapsed';
import { QuietNote } from '../board/quiet-note';
import { agentLabel, cardViewModel } from '../state/selectors';
import { desk, useDesk } from '../state/store';
import { DevServerControls } from './dev-server-controls';
import { TaskActions } from './task-actions';


function NativeExtras({ path }: { path: string }) {
  const bridge = deskBridge();
  if (bridge.runtime !== 'electron') return null;
  const run = async (action: Promise<{ ok: boolean; reason?: string }>) => {
    const result = await action;
    if (!result.ok && result.reason) desk().showAlert(result.reason);
  };
  return (
    <span className="native-extras">
      <button type="button" className="quiet small" onClick={() => void run(bridge.revealPath(path))}>Reveal worktree</button>
      <button type="button" className="quiet small" onClick={() => void run(bridge.openInEditor(path))}>Open in editor</button>
    </span>
  );
}

export function TaskHeader({ taskId }: { taskId: string }) {
  const task = useDesk((state) => state.tasks[taskId]);
  const detail = useDesk((state) => state.details[taskId]);
  if (!task) return null;
  const card = cardViewModel(task, undefined, []);
  const unmet = detail?.unmetDependencies ?? [];

  return (
    <header className="task-header">
      <div className="task-heading">
        <h2>{card.title}</h2>
        <button type="button" className="quiet" onClick={() => desk().openTask(undefined)}>Back to board</button>
      </div>
      <p className="task-facts">
        <span className={`chip chip-${card.column}`}>{STATUS_LABELS[task.status]}{task.review !== 'pending' ? ` · ${task.review}` : ''}</span>
        <span>{task.id}</span>
        <span title={`The desk's agent ${task.agent}`}>{agentLabel(task)}</span>
        <Elapsed time={card.time} />
        {detail?.branch && <code title={`from ${detail.baseBranch}`}>{detail.branch}</code>}
        {task.commit && <code title="Latest commit">{task.commit.slice(0, 10)}</code>}
        {detail?.worktreePath && <NativeExtras path={detail.worktreePath} />}
      </p>
      <TaskActions taskId={taskId} />
      <DevServerControls taskId={taskId} />
      {detail && (
        <details className="task-prompt">
          <summary>Prompt{detail.turns.length > 1 ? ` and ${detail.turns.length - 1} follow-up${detail.turns.length > 2 ? 's' : ''}` : ''}</summary>
          {detail.turns.length > 1
            ? <ol>{detail.turns.map((turn) => <li key={turn.turn}><pre>{turn.prompt}</pre></li>)}</ol>
            : <pre>{detail.prompt}</pre>}
        </details>
      )}
      {detail?.blockedBy && <p className="task-warning">{detail.blockedBy}</p>}
      {unmet.length > 0 && !detail?.blockedBy && (
        <p className="task-waiting">Waits for {unmet.map((dependency) => `${dependency.id} (${dependency.status})`).join(', ')}.</p>
      )}
      {task.quietSince && task.status === 'in-progress' && <QuietNote taskId={task.id} since={task.quietSince} />}
      {detail?.errorMessage && <p className="task-error">{detail.errorMessage}</p>}
      {task.review === 'approved' && <p className="task-approved">Approved: merged into {detail?.baseBranch ?? 'the base branch'}.</p>}
    </header>
  );
}
