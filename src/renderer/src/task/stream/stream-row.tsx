// One row of a task's stream. Memoized by the row object: the stream replaces a row's object when it changes.
import { memo, useContext } from 'react';
import type { QuestionAnswer } from '../../../../shared/questions';
import { STATUS_LABELS } from '../../../../shared/task-status-labels';
import type { StreamItem, TaskStream } from '../../state/task-stream';
import { usageText } from '../../state/token-usage';
import { TerminalView } from '../terminal/terminal-view';
import { Expandable } from './expandable';
import { LoginHelpRow } from './login-help';
import { MarkdownText } from './markdown';
import { ToolCallRow } from './tool-call';
import { relativeText, WorktreeContext } from './worktree-path';
import { ALWAYS_ALLOWED_RULE } from '../../../../shared/always-allow';
import { byteSize } from '../../ui/byte-size';

/** What a person's answer says, in their words: the option they chose, what they filled in, or that they declined. */
export function answerText(answer: QuestionAnswer, choice?: string): string {
  if ('optionId' in answer) return choice ?? answer.optionId;
  if ('content' in answer) return Object.values(answer.content).map(String).join(', ');
  if ('declined' in answer) return 'Declined to answer.';
  return '';
}

/** A person's words: right-aligned, "You", with the turn they start when it is not the first. */
function YouBubble({ text, turn, note }: { text: string; turn?: number; note?: string }) {
  return (
    <div className="bubble-row bubble-row-you">
      <div className="msg msg-you" data-who="you">
        <span className="msg-who">You{note ? ` · ${note}` : ''}{turn !== undefined && turn > 1 && <span className="msg-turn">Turn {turn}</span>}</span>
        <p>{text}</p>
      </div>
    </div>
  );
}

/** The size with its exact count: a truncation notice says precisely what was dropped. */
function formatBytes(bytes: number): string {
  return bytes < 1024 ? byteSize(bytes) : `${byteSize(bytes)} (${bytes.toLocaleString('en-US')} bytes)`;
}

const STATUS_TEXT: Record<string, string> = STATUS_LABELS;

function TerminalCommand({ command }: { command: string }) {
  return <code>{relativeText(command, useContext(WorktreeContext))}</code>;
}

export const StreamRow = memo(function StreamRow({ item, stream }: { item: StreamItem; stream: TaskStream }) {
  switch (item.kind) {
    case 'prompt':
      return <YouBubble text={item.text} turn={item.turn} />;
    case 'message':
      return item.role === 'user'
        ? <YouBubble text={item.text} note="as the agent recalls it" />
        : <div className={`msg msg-agent${item.continues ? ' msg-continues' : ''}`} data-who="agent"><MarkdownText text={item.text} /></div>;
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
        <Expandable stream={stream} itemKey={item.key} className="terminal-row" summary={<><span className="tool-kind">terminal</span> <TerminalCommand command={item.command} />{exit}</>}>
          {buffer && <TerminalView buffer={buffer} label={`Output of ${item.command}`} />}
        </Expandable>
      );
    }
    case 'question':
      // While it is open the chat below shows it (and takes the answer); the stream shows it once, after.
      return item.answered
        ? <div className="msg msg-agent msg-asks" data-who="agent"><span className="msg-who">{item.question.kind === 'permission' ? 'Asked permission' : 'Asked'}</span><p>{item.question.prompt}</p></div>
        : <p className="quiet-line">Waiting for your answer below.</p>;
    case 'answer':
      return 'cancelled' in item.answer
        ? <p className="quiet-line">The question was withdrawn: the task stopped.</p>
        : <YouBubble text={answerText(item.answer, item.choice)} />;
    case 'governance':
      // An earlier "Always allow" answer approved it: the person's decision, not the policy's.
      return <p className={`quiet-line gov gov-${item.decision}`}>{item.rule === ALWAYS_ALLOWED_RULE ? 'Approved' : `Policy ${item.decision}`}: {item.reason} <span className="gov-rule">({item.rule})</span></p>;
    case 'usage':
      return <p className="quiet-line usage-line" role="note" aria-label={`Tokens of turn ${item.turn}`}>Turn {item.turn}: {usageText(item.usage)}</p>;
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
        </p>
      );
  }
});
