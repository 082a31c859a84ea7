// Line comments in the diff: the box to write one, and the comments already gathered for a line.
import { useId, useState, type FormEvent } from 'react';
import type { LineComment } from '../../state/ui-slice';
import { desk } from '../../state/store';

export function CommentComposer({ onAdd, onClose }: { onAdd(text: string): void; onClose(): void }) {
  const [text, setText] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    onAdd(text);
  };
  return (
    <form className="comment-box" onSubmit={submit} onKeyDown={(event) => { if (event.key === 'Escape') onClose(); }}>
      <label htmlFor={id} className="sr-only">Comment</label>
      <textarea id={id} rows={2} value={text} placeholder="What should change here?" onChange={(event) => setText(event.target.value)} autoFocus />
      <div className="comment-actions">
        <button type="button" className="quiet" onClick={onClose}>Discard</button>
        <button type="submit" className="primary" disabled={!text.trim()}>Add comment</button>
      </div>
    </form>
  );
}

export function LineComments({ taskId, comments }: { taskId: string; comments: { comment: LineComment; index: number }[] }) {
  return (
    <ul className="line-comments">
      {comments.map(({ comment, index }) => (
        <li key={index}>
          <span>{comment.text}</span>
          <button
            type="button"
            className="quiet small"
            aria-label={`Remove comment on line ${comment.line} of ${comment.path}`}
            onClick={() => desk().removeComment(taskId, index)}
          >
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
