// Whichever dialog the store says is open.
import { ShortcutsDialog } from '../attention/shortcuts-dialog';
import { SettingsDialog } from '../settings/settings-dialog';
import { desk, useDesk } from '../state/store';
import { ConfirmDialog } from '../ui/dialog';
import { LinkDialog } from './link-dialog';
import { NewTaskDialog } from './new-task-dialog';

export function Dialogs() {
  const dialog = useDesk((state) => state.dialog);
  const close = () => desk().closeDialog();
  switch (dialog?.kind) {
    case 'new-task': return <NewTaskDialog />;
    case 'settings': return <SettingsDialog />;
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
    default:
      return null;
  }
}
