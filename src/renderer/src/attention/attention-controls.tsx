// The top bar's attention controls: browser notifications (the browser asks for permission only when this
// button is pressed, never on load), the sound, and the list of keyboard shortcuts.
import { useState } from 'react';
import { desk } from '../state/store';
import { attentionPrefs, useAttentionPrefs } from './attention-store';
import { playChime } from './chime';
import { BellIcon, SpeakerIcon } from '../ui/icons';
import { browserNotificationsAvailable } from './use-attention';

function NotificationsButton() {
  const on = useAttentionPrefs((prefs) => prefs.notify);
  // Re-read after asking: the browser's answer is not an event we can subscribe to.
  const [permission, setPermission] = useState(() => Notification.permission);
  if (permission === 'denied') {
    return <button type="button" className="small" disabled title="This browser blocks notifications from the desk; allow them in the site's settings.">Notifications blocked</button>;
  }
  const enabled = on && permission === 'granted';
  const toggle = async () => {
    if (enabled) {
      attentionPrefs.getState().set({ notify: false });
      return;
    }
    const answer = permission === 'granted' ? 'granted' : await Notification.requestPermission();
    setPermission(answer);
    attentionPrefs.getState().set({ notify: answer === 'granted' });
  };
  return (
    <button type="button" className="small icon-button" aria-pressed={enabled} aria-label={`Notifications ${enabled ? 'on' : 'off'}`}
      title={`Notifications ${enabled ? 'on' : 'off'}: tell me when a task needs an answer or a review while I look elsewhere`} onClick={() => void toggle()}>
      <BellIcon off={!enabled} />
    </button>
  );
}

export function AttentionControls() {
  const sound = useAttentionPrefs((prefs) => prefs.sound);
  return (
    <div className="attention-controls" role="group" aria-label="Attention">
      {browserNotificationsAvailable() && <NotificationsButton />}
      <button type="button" className="small icon-button" aria-pressed={sound} aria-label={`Sound ${sound ? 'on' : 'off'}`}
        title={`Sound ${sound ? 'on' : 'off'}: play a short sound when a task needs you`} onClick={() => {
        attentionPrefs.getState().set({ sound: !sound });
        // Heard once now, so the person knows what to listen for (and the browser lets later chimes play).
        if (!sound) playChime();
      }}>
        <SpeakerIcon off={!sound} />
      </button>
      <button type="button" className="small quiet" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" onClick={() => desk().openDialog({ kind: 'shortcuts' })}>?</button>
    </div>
  );
}
