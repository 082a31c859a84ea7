// GitLab's answers about a merge request's feedback as the desk's comments and failed checks: the notes of its
// discussions (on a line or a file, or general; system notes left out) and its head pipeline's failed jobs. Pure.
import type { FailedCheck } from '../../../shared/pull-request-feedback';
import type { ForgeComment } from './forge-api';
import { cut } from './github-feedback';

export interface GitLabNote {
  id: number; body: string; author?: { username?: string } | null; created_at: string; system?: boolean;
  resolvable?: boolean; resolved?: boolean;
  position?: { new_path?: string | null; old_path?: string | null; new_line?: number | null; old_line?: number | null; position_type?: string } | null;
}
export interface GitLabDiscussion { id: string; individual_note?: boolean; notes: GitLabNote[] }
export interface GitLabJob { id: number; name: string; stage?: string; status: string; web_url: string; failure_reason?: string | null; allow_failure?: boolean }

/** Every person's note, oldest first, each with its discussion as its thread. */
export function gitlabComments(discussions: readonly GitLabDiscussion[], requestUrl: string): ForgeComment[] {
  const comments = discussions.flatMap((discussion) => discussion.notes.filter((note) => note.system !== true).map((note): ForgeComment => {
    const path = note.position?.new_path ?? note.position?.old_path ?? undefined;
    const line = note.position?.new_line ?? undefined;
    const oldLine = line === undefined ? note.position?.old_line ?? undefined : undefined;
    return {
      id: `note-${note.id}`, author: note.author?.username ?? 'ghost', body: cut(note.body), url: `${requestUrl}#note_${note.id}`, createdAt: note.created_at,
      ...(path && { path }), ...(typeof line === 'number' && line > 0 && { line }), ...(typeof oldLine === 'number' && oldLine > 0 && { oldLine }),
      ...(note.resolvable === true && { resolved: note.resolved === true }),
      thread: discussion.id,
    };
  }));
  return comments.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** The pipeline's failed jobs (those allowed to fail left out), with their stage and GitLab's reason. */
export function gitlabFailedChecks(jobs: readonly GitLabJob[], head: string | undefined): FailedCheck[] {
  return jobs.filter((job) => job.status === 'failed' && job.allow_failure !== true).map((job) => ({
    name: job.name, url: job.web_url,
    summary: [job.stage && `stage ${job.stage}`, job.failure_reason && job.failure_reason.replaceAll('_', ' ')].filter(Boolean).join(': ') || 'failed',
    ...(head && { head }),
  }));
}
