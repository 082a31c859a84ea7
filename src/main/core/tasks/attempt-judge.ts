// The judge of a task's attempts, in words: the prompt it is given (each completed attempt's diff, cut when long, its
// check, time and tokens, then the task) and the reading of its answer's last `RECOMMEND:` line. Pure.
import { createTwoFilesPatch } from 'diff';
import type { CheckResult } from '../../../shared/task';
import type { TaskDiff } from '../../../shared/review';

/** A completed attempt as the judge is shown it. */
export interface JudgedAttempt {
  n: number;
  agent: string;
  branch: string;
  /** Its unified diff against the base (diffTextOf). */
  diff: string;
  check?: CheckResult | undefined;
  workingMs: number;
  tokens?: number | undefined;
}

/** What the judge's answer says: an attempt and why, none and why, or nothing readable. */
export type JudgeAnswer =
  | { kind: 'recommend'; n: number; reason: string }
  | { kind: 'none'; reason: string }
  | { kind: 'missing' };

/** The diffs of all attempts together are cut to about this many characters, shared evenly among them. */
export const JUDGE_DIFF_BUDGET = 60_000;
const MIN_DIFF_CHARS = 4_000;
const CHECK_TAIL_CHARS = 1_500;
const REASON_CHARS = 600;

/** The unified diff of a task's changes, file by file (binary and very large files named, not shown). */
export function diffTextOf(diff: TaskDiff): string {
  return diff.files.map((file) => {
    const from = file.oldPath ?? file.path;
    if (file.binary || file.tooLarge) return `--- a/${from}\n+++ b/${file.path}\n(${file.binary ? 'binary file' : 'file too large to show'}, ${file.status}: +${file.additions} -${file.deletions})\n`;
    const patch = createTwoFilesPatch(`a/${from}`, `b/${file.path}`, file.oldText ?? '', file.newText ?? '', undefined, undefined, { context: 3 });
    // The first line of createTwoFilesPatch is an `Index:`/`===` header; the --- +++ lines say the same.
    return patch.split('\n').filter((line) => !line.startsWith('Index: ') && !/^=+$/.test(line)).join('\n');
  }).join('');
}

/** At most `limit` characters of `text`, with a line saying how much was cut and where the rest is. */
export function cutText(text: string, limit: number, rest: string): string {
  if (text.length <= limit) return text;
  const kept = text.slice(0, limit);
  const end = kept.lastIndexOf('\n');
  const whole = end > limit / 2 ? kept.slice(0, end + 1) : `${kept}\n`;
  return `${whole}[cut: ${text.length - whole.length} more characters not shown; ${rest}]\n`;
}

const minutes = (ms: number) => (ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 60_000).toFixed(1)} min`);

function checkLine(check: CheckResult | undefined): string {
  if (!check) return 'Check: the repository has none.';
  const exit = check.exitCode === undefined ? '' : ` (exit code ${check.exitCode})`;
  const tail = check.outputTail.trim() === '' ? '' : `\nEnd of the check's output:\n\`\`\`\n${check.outputTail.slice(-CHECK_TAIL_CHARS).trimEnd()}\n\`\`\``;
  return `Check: ${check.status}${exit} in ${minutes(check.durationMs)}.${tail}`;
}

/**
 * The judge's prompt. The task comes last and as it was given, so an agent that acts its prompt out (the scripted agent)
 * ends with what the task says; the instructions before it never start a line with a lower-case word.
 */
export function judgePromptOf(task: { prompt: string }, attempts: readonly JudgedAttempt[]): string {
  const perAttempt = Math.max(MIN_DIFF_CHARS, Math.floor(JUDGE_DIFF_BUDGET / Math.max(1, attempts.length)));
  const sections = attempts.map((attempt) => [
    `## Attempt ${attempt.n} (attempt-${attempt.n})`,
    `Agent: ${attempt.agent}. Branch: ${attempt.branch}.`,
    `Working time: ${minutes(attempt.workingMs)}. Tokens: ${attempt.tokens === undefined ? 'not reported' : attempt.tokens}.`,
    checkLine(attempt.check),
    attempt.diff.trim() === ''
      ? 'Diff: it changed no file.'
      : `Diff against the base:\n\`\`\`diff\n${cutText(attempt.diff, perAttempt, `the whole diff is on branch ${attempt.branch}`).trimEnd()}\n\`\`\``,
  ].join('\n'));
  return [
    `You are the judge of ${attempts.length} attempt${attempts.length === 1 ? '' : 's'} at one coding task: several agents (or one agent several times) did the same task, each in its own worktree.`,
    'Compare their work: does it do what the task asks, is it correct and complete, did it pass the check, is it clear and no larger than it needs to be. Time and tokens matter only between attempts of equal quality.',
    'Do not change any file: your worktree is discarded when you end, and nothing you write is kept.',
    '',
    ...sections.flatMap((section) => [section, '']),
    '## How to answer',
    'Say briefly how the attempts compare. Then end your answer with one last line of exactly this form, naming the attempt you recommend and why in one sentence:',
    'RECOMMEND: attempt-<n> - <why>',
    'When no attempt is acceptable, end with this line instead:',
    'RECOMMEND: none - <why>',
    '',
    '## The task, as every attempt was given it',
    task.prompt,
  ].join('\n');
}

/** The last `RECOMMEND:` line of the judge's answer (markdown around it allowed), read. */
export function parseJudgeAnswer(output: string): JudgeAnswer {
  const pattern = /RECOMMEND[*_`\s]*:[*_`\s]*(?:attempt[\s_-]*#?(\d+)|(none)\b)/gi;
  let last: { match: RegExpExecArray; line: string } | undefined;
  for (const match of output.matchAll(pattern)) {
    const after = output.slice(match.index + match[0].length);
    const lineEnd = after.indexOf('\n');
    const line = (lineEnd === -1 ? after : after.slice(0, lineEnd)).replace(/^[\s*_`.:;,—–-]+/, '').replace(/[\s*_`]+$/, '');
    // The form in the prompt, repeated back, is not an answer.
    if (line.startsWith('<why>')) continue;
    last = { match: match as RegExpExecArray, line };
  }
  if (!last) return { kind: 'missing' };
  let reason = last.line;
  if (reason === '') {
    // No reason on the line: the paragraph before it says why.
    const before = output.slice(0, last.match.index).trimEnd();
    reason = before.slice(before.lastIndexOf('\n\n') + 1).trim();
  }
  reason = reason.length > REASON_CHARS ? `${reason.slice(0, REASON_CHARS - 1)}…` : reason;
  if (last.match[2] !== undefined) return { kind: 'none', reason };
  const n = Number(last.match[1]);
  return Number.isSafeInteger(n) && n > 0 ? { kind: 'recommend', n, reason } : { kind: 'missing' };
}
