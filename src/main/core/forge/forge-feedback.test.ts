// GitHub's and GitLab's feedback answers, in the shapes their REST APIs send, as the desk's comments and failed
// checks; and when a forge that limits the rate lets the desk ask again.
import { describe, expect, it } from 'vitest';
import { githubComments, githubFailedChecks, githubThreadRoot } from './github-feedback';
import { gitlabComments, gitlabFailedChecks } from './gitlab-feedback';
import { RATE_LIMIT_FALLBACK_MS, rateLimitRetryAt } from './rate-limit';

const user = (login: string) => ({ login, id: 7, type: 'User' });

describe('GitHub feedback', () => {
  const reviewComments = [
    { id: 11, user: user('ana'), body: 'Use a constant here.', html_url: 'https://github.com/a/b/pull/1#discussion_r11', created_at: '2026-01-01T10:00:00Z', path: 'src/a.ts', line: 12, original_line: 12, subject_type: 'line' as const, commit_id: 'c1' },
    { id: 12, user: user('bo'), body: 'Agreed.', html_url: 'https://github.com/a/b/pull/1#discussion_r12', created_at: '2026-01-01T10:05:00Z', path: 'src/a.ts', line: 12, in_reply_to_id: 11, subject_type: 'line' as const },
    { id: 13, user: user('ana'), body: 'This file should not exist.', html_url: 'u13', created_at: '2026-01-01T10:01:00Z', path: 'old.txt', line: null, subject_type: 'file' as const },
    { id: 14, user: user('bo'), body: 'Why remove this?', html_url: 'u14', created_at: '2026-01-01T10:06:00Z', path: 'src/a.ts', line: 3, side: 'LEFT' as const, subject_type: 'line' as const },
  ];
  const reviews = [
    { id: 21, user: user('ana'), body: 'A few things.', state: 'CHANGES_REQUESTED', html_url: 'u21', submitted_at: '2026-01-01T10:02:00Z' },
    { id: 22, user: user('bo'), body: '', state: 'APPROVED', html_url: 'u22', submitted_at: '2026-01-01T10:03:00Z' },
  ];
  const general = [{ id: 31, user: null, body: 'Please add a test.', html_url: 'u31', created_at: '2026-01-01T09:00:00Z' }];

  it('reads line comments with their file, line and thread, file comments without a line, reviews with words and conversation comments, oldest first', () => {
    const comments = githubComments(reviewComments, reviews, general);
    expect(comments.map((comment) => comment.id)).toEqual(['comment-31', 'review-comment-11', 'review-comment-13', 'review-21', 'review-comment-12', 'review-comment-14']);
    expect(comments[5]).toMatchObject({ path: 'src/a.ts', oldLine: 3 });
    expect(comments[5]!.line).toBeUndefined();
    expect(comments[1]).toEqual({ id: 'review-comment-11', author: 'ana', path: 'src/a.ts', line: 12, body: 'Use a constant here.', url: 'https://github.com/a/b/pull/1#discussion_r11', createdAt: '2026-01-01T10:00:00Z', thread: 'review-comment-11' });
    expect(comments[2]).toMatchObject({ path: 'old.txt', thread: 'review-comment-13' });
    expect(comments[2]!.line).toBeUndefined();
    expect(comments[4]!.thread).toBe('review-comment-11');
    expect(comments[0]).toMatchObject({ author: 'ghost', body: 'Please add a test.' });
    expect(githubThreadRoot(comments[4]!)).toBe(11);
    expect(githubThreadRoot(comments[0]!)).toBeUndefined();
  });

  it('reads failed check runs with their output, leaving out passed and unfinished ones', () => {
    const runs = [
      { name: 'test', status: 'completed', conclusion: 'failure', html_url: 'https://github.com/a/b/runs/1', head_sha: 'abc', output: { title: '2 tests failed', summary: 'greeting.test.ts: expected "hi"' } },
      { name: 'lint', status: 'completed', conclusion: 'success', html_url: 'u2', output: null },
      { name: 'build', status: 'in_progress', conclusion: null },
      { name: 'deploy', status: 'completed', conclusion: 'timed_out', details_url: 'u4', output: { title: null, summary: null } },
    ];
    expect(githubFailedChecks(runs, 'head1')).toEqual([
      { name: 'test', url: 'https://github.com/a/b/runs/1', head: 'abc', summary: 'failure: 2 tests failed\ngreeting.test.ts: expected "hi"' },
      { name: 'deploy', url: 'u4', head: 'head1', summary: 'timed_out' },
    ]);
  });

  it('cuts a very long comment and says so', () => {
    const [comment] = githubComments([], [], [{ id: 1, user: user('a'), body: 'x'.repeat(20_000), html_url: 'u', created_at: 't' }]);
    expect(comment!.body.length).toBeLessThan(8_100);
    expect(comment!.body).toMatch(/cut after 8000 characters/);
  });
});

describe('GitLab feedback', () => {
  const discussions = [
    { id: 'aaa', individual_note: true, notes: [{ id: 1, body: 'added 1 commit', system: true, author: { username: 'ana' }, created_at: '2026-01-01T09:00:00Z' }] },
    { id: 'bbb', individual_note: false, notes: [
      { id: 2, type: 'DiffNote', body: 'Rename this.', author: { username: 'ana' }, created_at: '2026-01-01T10:00:00Z', resolvable: true, resolved: false, position: { new_path: 'src/a.ts', old_path: 'src/a.ts', new_line: 4, old_line: null } },
      { id: 3, type: 'DiffNote', body: 'Done?', author: { username: 'bo' }, created_at: '2026-01-01T10:01:00Z', resolvable: true, resolved: false, position: { new_path: 'src/a.ts', old_path: 'src/a.ts', new_line: 4 } },
    ] },
    { id: 'ccc', individual_note: false, notes: [
      { id: 4, type: 'DiffNote', body: 'Old idea.', author: { username: 'bo' }, created_at: '2026-01-01T08:00:00Z', resolvable: true, resolved: true, position: { new_path: 'b.ts', old_path: 'b.ts', new_line: null, old_line: 9 } },
    ] },
    { id: 'ddd', individual_note: true, notes: [{ id: 5, type: null, body: 'Looks good otherwise.', author: { username: 'cy' }, created_at: '2026-01-01T11:00:00Z', resolvable: false }] },
  ];

  it('reads the notes of every discussion with file, line, thread and resolution, leaving out system notes', () => {
    const comments = gitlabComments(discussions, 'https://gitlab.com/g/p/-/merge_requests/3');
    expect(comments.map((comment) => comment.id)).toEqual(['note-4', 'note-2', 'note-3', 'note-5']);
    expect(comments[1]).toEqual({ id: 'note-2', author: 'ana', path: 'src/a.ts', line: 4, body: 'Rename this.', url: 'https://gitlab.com/g/p/-/merge_requests/3#note_2', createdAt: '2026-01-01T10:00:00Z', resolved: false, thread: 'bbb' });
    expect(comments[0]).toMatchObject({ path: 'b.ts', oldLine: 9, resolved: true, thread: 'ccc' });
    expect(comments[0]!.line).toBeUndefined();
    expect(comments[3]).toMatchObject({ author: 'cy', thread: 'ddd' });
    expect(comments[3]!.resolved).toBeUndefined();
  });

  it('reads the failed jobs of the head pipeline with stage and reason, leaving out jobs allowed to fail', () => {
    const jobs = [
      { id: 1, name: 'rspec', stage: 'test', status: 'failed', web_url: 'https://gitlab.com/g/p/-/jobs/1', failure_reason: 'script_failure' },
      { id: 2, name: 'audit', stage: 'test', status: 'failed', web_url: 'u2', failure_reason: 'script_failure', allow_failure: true },
    ];
    expect(gitlabFailedChecks(jobs, 'abc')).toEqual([{ name: 'rspec', url: 'https://gitlab.com/g/p/-/jobs/1', summary: 'stage test: script failure', head: 'abc' }]);
  });
});

describe('rate limits', () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);
  const now = 1_800_000_000_000;

  it('waits the seconds of retry-after on a 429 or a 403', () => {
    expect(rateLimitRetryAt(429, headers({ 'retry-after': '30' }), now)).toBe(now + 30_000);
    expect(rateLimitRetryAt(403, headers({ 'retry-after': '5' }), now)).toBe(now + 5_000);
  });

  it("waits until GitHub's x-ratelimit-reset once no requests remain, and GitLab's ratelimit-reset", () => {
    expect(rateLimitRetryAt(403, headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 600) }), now)).toBe(now + 600_000);
    expect(rateLimitRetryAt(429, headers({ 'ratelimit-remaining': '0', 'ratelimit-reset': String(now / 1000 + 60) }), now)).toBe(now + 60_000);
  });

  it('reads a retry-after date, and waits a minute on a 429 that says nothing', () => {
    expect(rateLimitRetryAt(429, headers({ 'retry-after': new Date(now + 90_000).toUTCString() }), now)).toBe(now + 90_000);
    expect(rateLimitRetryAt(429, headers({}), now)).toBe(now + RATE_LIMIT_FALLBACK_MS);
  });

  it('takes a plain 403 (a missing scope) and other answers for what they are, not a rate limit', () => {
    expect(rateLimitRetryAt(403, headers({ 'x-ratelimit-remaining': '4999', 'x-ratelimit-reset': String(now / 1000 + 600) }), now)).toBeUndefined();
    expect(rateLimitRetryAt(500, headers({ 'retry-after': '30' }), now)).toBeUndefined();
  });
});
