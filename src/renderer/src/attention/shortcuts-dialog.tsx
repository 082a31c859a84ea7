// The list of keyboard shortcuts (`?`, or the Shortcuts button).
import { Dialog } from '../ui/dialog';
import { SHORTCUTS } from './shortcuts';

export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} size="small">
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.action}>
              <th scope="row">{shortcut.keys.map((key, index) => <span key={key}>{index > 0 && (shortcut.keys[0] === 'Ctrl' ? ' + ' : ' or ')}<kbd>{key}</kbd></span>)}</th>
              <td>{shortcut.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">Shortcuts wait while you type in a field.</p>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose} data-autofocus>Close</button>
      </div>
    </Dialog>
  );
}
