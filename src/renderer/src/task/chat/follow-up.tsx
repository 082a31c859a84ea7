// Another turn for the task's agent, once its run is over (the core answers 409 while it works).
import { useId, useState, type FormEvent } from 'react';
import { isFinished } from '../../state/selectors';
import { desk, useDesk } from '../../state/store';

export function FollowUp({ taskId }: { taskId: string }) {
  const status = useDesk((state) => state.tasks[taskId]?.status);
  const [prompt, setPrompt] = useState('');
  const [busy, setBusy] = useState(false);
  const ids = { prompt: useId(), reason: useId() };
  const ready = status !== undefined && isFinished(status);
  const reason = ready ? undefined : 'You can send a follow-up when the agent’s run is over.';

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!ready || !prompt.trim()) return;
    setBusy(true);
    if (await desk().sendFollowUp(taskId, prompt)) setPrompt('');
    setBusy(false);
  };

  return (
    <form className="follow-up" onSubmit={send}>
      <label htmlFor={ids.prompt} className="sr-only">Follow-up prompt</label>
      <textarea
        id={ids.prompt}
        rows={2}
        placeholder="Ask the agent for more (Ctrl+Enter sends)"
        value={prompt}
        onChange={(event) => setPrompt(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send();
        }}
      />
      <div className="follow-up-actions">
        {reason && <span id={ids.reason} className="hint">{reason}</span>}
        <button type="submit" className="primary" disabled={!ready || busy || !prompt.trim()} aria-describedby={reason ? ids.reason : undefined}>
          Send follow-up
        </button>
      </div>
    </form>
  );
}
