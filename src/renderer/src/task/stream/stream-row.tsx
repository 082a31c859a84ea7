// One row of a task's stream. Memoized by the row object: the stream replaces a row's object when it changes.
import { memo } from 'react';
import type { QuestionAnswer } from '../../../../shared/questions';
import { STATUS_LABELS } from '../../../../shared/task-status-labels';
import type { StreamItem, TaskStream } from '../../state/task-stream';
import { TerminalView } from '../terminal/terminal-view';
import { Expandable } from './expandable';
import { LoginHelpRow } from './login-help';
import { MarkdownText } from './markdown';
import { ToolCallRow } from './tool-call';

function answerText(answer: QuestionAnswer): string {
  if ('optionId' in answer) return `chose ${answer.optionId}`;
  if ('content' in answer) return `answered ${Object.values(answer.content).map(String).join(', ')}`;
  if ('declined' in answer) return 'declined';
  return 'cancelled (the task stopped)';
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit += 1; }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]} (${bytes.toLocaleString('en-US')} bytes)`;
}

const STATUS_TEXT: Record<string, string> = STATUS_LABELS;

export const StreamRow = memo(function StreamRow({ item, stream }: { item: StreamItem; stream: TaskStream }) {
  switch (item.kind) {
    case 'message':
      return item.role === 'user'
        ? <div className="msg msg-user"><span className="msg-who">Prompt</span><p>{item.text}</p></div>
        : <div className="msg msg-agent"><MarkdownText text={item.text} /></div>;
    case 'thought':
      return (
        <Expandable stream={stream} itemKey={item.key} className="thought" summary="Thought">
          <p className="thought-text">{item.text}</p>
        </Expandable>
      );
    case 'tool':
      return <ToolCallRow item={item} stream={stream} />;
    case 'plan':
      return (
        <div className="plan">
          <h4>Plan</h4>
          <ul>
            {item.entries.map((entry, index) => (
              <li key={index} className={`plan-${entry.status ?? 'pending'}`}>
                <label>
                  <input type="checkbox" checked={entry.status === 'completed'} readOnly disabled />
                  {entry.content}
                  {entry.status === 'in_progress' && <span className="plan-now"> (in progress)</span>}
                </label>
              </li>
            ))}
          </ul>
        </div>
      );
    case 'terminal': {
      if (item.owned) return null;
      const buffer = stream.terminals.get(item.terminalId);
      const exit = item.exit ? ` · exited ${item.exit.exitCode ?? item.exit.signal ?? ''}` : ' · running';
      return (
        <Expandable stream={stream} itemKey={item.key} className="terminal-row" summary={<><span className="tool-kind">terminal</span> <code>{item.command}</code>{exit}</>}>
          {buffer && <TerminalView buffer={buffer} label={`Output of ${item.command}`} />}
        </Expandable>
      );
    }
    case 'question':
      return <p className="quiet-line">Asked: {item.question.prompt}</p>;
    case 'answer':
      return <p className="quiet-line">{item.answeredBy || 'Someone'} {answerText(item.answer)}.</p>;
    case 'governance':
      return <p className={`quiet-line gov gov-${item.decision}`}>Policy {item.decision}: {item.reason} <span className="gov-rule">({item.rule})</span></p>;
    case 'truncated':
      return <p className="quiet-line truncated" role="note">Output truncated: {formatBytes(item.droppedBytes)} dropped here to keep the desk's storage bounded; the newest output follows.</p>;
    case 'login':
      return <LoginHelpRow help={item.help} />;
    case 'log':
      return <pre className={`log log-${item.level} log-${item.source}`}>{item.text}</pre>;
    case 'status':
      return (
        <p className="status-line">
          <span>{STATUS_TEXT[item.status] ?? item.status}{item.review !== 'pending' ? ` · ${item.review}` : ''}</span>
          {item.attempt > 1 && <span className="status-attempt">attempt {item.attempt}</span>}
        </p>
      );
  }
});
