// Asks once before approving tasks whose changes can run code or steer agents on this machine (hooks, CI, package
// scripts, agent instructions…), listing each file with the desk's reason; yes approves again with the confirmation.
import { desk } from '../state/store';
import type { AttentionRefusal } from '../state/ui-slice';
import { ConfirmDialog } from '../ui/dialog';

export function AttentionDialog({ tasks, bulk, onClose }: { tasks: AttentionRefusal[]; bulk: boolean; onClose(): void }) {
  const single = tasks.length === 1 ? tasks[0] : undefined;
  const confirm = () => {
    if (single && !bulk) void desk().approveTask(single.id, { confirmAttention: true });
    else void desk().runBulk('approve', { ids: tasks.map((task) => task.id), confirmAttention: true });
  };
  return (
    <ConfirmDialog
      title={single ? `Approve ${single.id}? It changes files that run on your machine` : `Approve ${tasks.length} tasks? They change files that run on your machine`}
      body={(
        <>
          <p>Once merged, these can run commands or steer coding agents where this branch is checked out. Approve only if you looked at them.</p>
          {tasks.map((task) => (
            <section key={task.id} className="attention-task" aria-label={`Files of ${task.id} that need attention`}>
              {!single && <h3 className="attention-task-id">{task.id}</h3>}
              <ul className="attention-files">
                {task.files.map((file) => (
                  <li key={file.path}>
                    <code>{file.path}</code>
                    {file.reason && <span className="attention-reason">{file.reason}</span>}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
      confirm={single ? 'Approve with these files' : `Approve ${tasks.length} with these files`}
      keep="Not yet"
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}
