// The keyboard way to link: "Wait for another task" picks, by search, the task this one waits for; tasks it cannot
// wait for (finished, or a link that would close a cycle) are listed with the reason instead of offered.
import { useState, type FormEvent } from 'react';
import { desk } from '../state/store';
import { Dialog } from '../ui/dialog';
import { DependencyCombobox } from './dependency-combobox';

export function LinkDialog({ taskId }: { taskId: string }) {
  const [target, setTarget] = useState<string[]>([]);
  const close = () => desk().closeDialog();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const picked = target[0];
    if (!picked) return;
    close();
    void desk().linkTask(taskId, picked);
  };

  return (
    <Dialog title="Wait for another task" onClose={close}>
      <form className="form" onSubmit={submit}>
        <p className="dialog-body">Task {taskId} will start only after the task you pick has completed.</p>
        <DependencyCombobox taskId={taskId} value={target} onChange={setTarget} multiple={false} label="Task" />
        <div className="dialog-actions">
          <button type="button" onClick={close}>Close</button>
          <button type="submit" className="primary" disabled={target.length === 0}>Link</button>
        </div>
      </form>
    </Dialog>
  );
}
