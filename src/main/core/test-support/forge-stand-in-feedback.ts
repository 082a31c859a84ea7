// The forge stand-ins' feedback routes: GitHub's review comments, reviews and conversation comments (and replies to
// them), GitLab's discussions (and notes added to them), each in the forge's own shape.
import type { StoredRequest } from './forge-stand-in';

export interface StoredComment {
  id: number;
  /** The request it is on. */
  number: number;
  author: string;
  body: string;
  /** `line`/`file`: on the diff; `review`: a review's summary (GitHub); `general`: in the conversation. */
  kind: 'line' | 'file' | 'review' | 'general';
  path?: string;
  line?: number;
  replyTo?: number;
  resolved?: boolean;
  createdAt: string;
  discussion: string;
}

interface FeedbackCall {
  kind: 'github' | 'gitlab';
  repository: string;
  requests: StoredRequest[];
  comments: StoredComment[];
  webOf(number: number): string;
  method: string;
  /** The path after the repository's. */
  rest: string;
  body: unknown;
}

/** The answer to a feedback call, or undefined when the call is not one. */
export function feedbackRoute(call: FeedbackCall): { status: number; body: unknown } | undefined {
  return call.kind === 'github' ? githubRoute(call) : gitlabRoute(call);
}

function add(call: FeedbackCall, comment: Omit<StoredComment, 'id' | 'createdAt' | 'discussion'>, discussion?: string): StoredComment {
  const id = 1000 + call.comments.length;
  const stored = { ...comment, id, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, call.comments.length)).toISOString(), discussion: discussion ?? `d${id.toString(16)}` };
  call.comments.push(stored);
  return stored;
}

function githubRoute(call: FeedbackCall): { status: number; body: unknown } | undefined {
  const { comments, rest, method, webOf } = call;
  const user = (comment: StoredComment) => ({ login: comment.author });
  const asReviewComment = (comment: StoredComment) => ({
    id: comment.id, user: user(comment), body: comment.body, html_url: `${webOf(comment.number)}#discussion_r${comment.id}`, created_at: comment.createdAt,
    path: comment.path, line: comment.kind === 'line' ? comment.line : null, subject_type: comment.kind === 'file' ? 'file' : 'line',
    ...(comment.replyTo !== undefined && { in_reply_to_id: comment.replyTo }),
  });
  const pullComments = /^\/pulls\/(\d+)\/comments$/.exec(rest);
  if (pullComments && method === 'GET') {
    return { status: 200, body: comments.filter((c) => c.number === Number(pullComments[1]) && (c.kind === 'line' || c.kind === 'file')).map(asReviewComment) };
  }
  const reviews = /^\/pulls\/(\d+)\/reviews$/.exec(rest);
  if (reviews && method === 'GET') {
    return { status: 200, body: comments.filter((c) => c.number === Number(reviews[1]) && c.kind === 'review').map((c) => ({
      id: c.id, user: user(c), body: c.body, state: 'CHANGES_REQUESTED', html_url: `${webOf(c.number)}#pullrequestreview-${c.id}`, submitted_at: c.createdAt,
    })) };
  }
  const issueComments = /^\/issues\/(\d+)\/comments$/.exec(rest);
  if (issueComments && method === 'GET') {
    return { status: 200, body: comments.filter((c) => c.number === Number(issueComments[1]) && c.kind === 'general').map((c) => ({
      id: c.id, user: user(c), body: c.body, html_url: `${webOf(c.number)}#issuecomment-${c.id}`, created_at: c.createdAt,
    })) };
  }
  if (issueComments && method === 'POST') {
    const posted = add(call, { number: Number(issueComments[1]), author: 'desk-bot', body: String((call.body as { body?: unknown }).body), kind: 'general' });
    return { status: 201, body: { id: posted.id } };
  }
  const replies = /^\/pulls\/(\d+)\/comments\/(\d+)\/replies$/.exec(rest);
  if (replies && method === 'POST') {
    const root = comments.find((c) => c.id === Number(replies[2]));
    if (!root) return { status: 404, body: { message: 'Not Found' } };
    const posted = add(call, { number: Number(replies[1]), author: 'desk-bot', body: String((call.body as { body?: unknown }).body), kind: root.kind, path: root.path, line: root.line, replyTo: root.id });
    return { status: 201, body: asReviewComment(posted) };
  }
  return undefined;
}

function gitlabRoute(call: FeedbackCall): { status: number; body: unknown } | undefined {
  const { comments, rest, method } = call;
  const asNote = (c: StoredComment) => ({
    id: c.id, type: c.kind === 'general' ? null : 'DiffNote', body: c.body, author: { username: c.author }, created_at: c.createdAt, system: false,
    resolvable: c.kind !== 'general', ...(c.kind !== 'general' && { resolved: c.resolved === true }),
    ...(c.path && { position: { new_path: c.path, old_path: c.path, new_line: c.kind === 'line' ? c.line : null, position_type: c.kind === 'file' ? 'file' : 'text' } }),
  });
  const discussions = /^\/merge_requests\/(\d+)\/discussions$/.exec(rest);
  if (discussions && method === 'GET') {
    const ofRequest = comments.filter((c) => c.number === Number(discussions[1]));
    const ids = [...new Set(ofRequest.map((c) => c.discussion))];
    // A system note ("added 1 commit") as GitLab mixes them in.
    const system = { id: 1, individual_note: true, notes: [{ id: 1, body: 'added 1 commit', system: true, author: { username: 'someone' }, created_at: '2026-01-01T00:00:00Z' }] };
    return { status: 200, body: [system, ...ids.map((id) => {
      const notes = ofRequest.filter((c) => c.discussion === id);
      return { id, individual_note: notes.length === 1 && notes[0]!.kind === 'general', notes: notes.map(asNote) };
    })] };
  }
  const notes = /^\/merge_requests\/(\d+)\/discussions\/([^/]+)\/notes$/.exec(rest);
  if (notes && method === 'POST') {
    const discussion = decodeURIComponent(notes[2]!);
    const root = comments.find((c) => c.discussion === discussion);
    if (!root) return { status: 404, body: { message: '404 Discussion Not Found' } };
    const posted = add(call, { number: Number(notes[1]), author: 'desk-bot', body: String((call.body as { body?: unknown }).body), kind: root.kind, path: root.path, line: root.line }, discussion);
    return { status: 201, body: asNote(posted) };
  }
  return undefined;
}
