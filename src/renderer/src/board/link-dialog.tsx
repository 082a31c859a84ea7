// The keyboard way to link: "Wait for another task" picks the task this one waits for.
import { useId, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { desk, useDesk } from '../state/store';
import { Dialog } from '../ui/dialog';

export function LinkDialog({ taskId }: { taskId: string }) {
  const candidates = useDesk(useShallow((state) => {
    const current = state.tasks[taskId]?.dependencies ?? [];
    return state.order.filter((id) => id !== taskId && !current.includes(id));
  }));
  const titles = useDesk((state) => state.tasks);
  const [target, setTarget] = useState(candidates[0] ?? '');
  const selectId = useId();
  const close = () => desk().closeDialog();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!target) return;
    close();
    void desk().linkTask(taskId, target);
  };

  return (
    <Dialog title="Wait for another task" onClose={close} size="small">
      <form className="form" onSubmit={submit}>
        <p className="dialog-body">Task {taskId} will start only after the task you pick has completed.</p>
        <label htmlFor={selectId}>Task</label>
        <select id={selectId} value={target} onChange={(event) => setTarget(event.target.value)} data-autofocus>
          {candidates.map((id) => <option key={id} value={id}>{id} — {titles[id]?.title}</option>)}
        </select>
        <div className="dialog-actions">
          <button type="button" onClick={close}>Close</button>
          <button type="submit" className="primary" disabled={!target}>Link</button>
        </div>
      </form>
    </Dialog>
  );
}
