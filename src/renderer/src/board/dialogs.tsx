// Whichever dialog the store says is open.
import { ShortcutsDialog } from '../attention/shortcuts-dialog';
import { SettingsDialog } from '../settings/settings-dialog';
import { desk, useDesk } from '../state/store';
import { ConfirmDialog } from '../ui/dialog';
import { AddRepoDialog } from './add-repo-dialog';
import { AttentionDialog } from './attention-dialog';
import { LinkDialog } from './link-dialog';
import { NewTaskDialog } from './new-task-dialog';

export function Dialogs() {
  const dialog = useDesk((state) => state.dialog);
  const close = () => desk().closeDialog();
  switch (dialog?.kind) {
    case 'new-task': return <NewTaskDialog />;
    case 'settings': return <SettingsDialog />;
    case 'add-repo': return <AddRepoDialog />;
    case 'link': return <LinkDialog taskId={dialog.taskId} />;
    case 'shortcuts': return <ShortcutsDialog onClose={close} />;
    case 'confirm-cancel':
      return (
        <ConfirmDialog
          title={`Cancel task ${dialog.taskId}?`}
          body="Its agent is stopped at once. Work it committed stays on its branch."
          confirm="Cancel task"
          onConfirm={() => void desk().cancelTask(dialog.taskId)}
          onClose={close}
        />
      );
    case 'confirm-reject':
      return (
        <ConfirmDialog
          title={`Reject task ${dialog.taskId}?`}
          body="Its branch is discarded from the board (archived in git, never deleted). Your own uncommitted work is never touched."
          confirm="Reject task"
          onConfirm={() => void desk().rejectTask(dialog.taskId)}
          onClose={close}
        />
      );
    case 'confirm-clear-done':
      return (
        <ConfirmDialog
          title={`Archive ${dialog.count} finished task${dialog.count === 1 ? '' : 's'}?`}
          body="Approved, rejected, failed and cancelled tasks leave the board. They stay on the desk with their branches and history: the Archived filter shows them, and each can be put back."
          confirm={`Archive ${dialog.count}`}
          danger={false}
          onConfirm={() => void desk().clearDone()}
          onClose={close}
        />
      );
    case 'confirm-bulk-reject':
      return (
        <ConfirmDialog
          title={`Reject ${dialog.count} task${dialog.count === 1 ? '' : 's'}?`}
          body="Each one's branch is archived in git, never deleted. Your own uncommitted work is never touched."
          confirm={`Reject ${dialog.count}`}
          onConfirm={() => void desk().runBulk('reject')}
          onClose={close}
        />
      );
    case 'confirm-attention': return <AttentionDialog tasks={dialog.tasks} bulk={dialog.bulk} onClose={close} />;
    default:
      return null;
  }
}
