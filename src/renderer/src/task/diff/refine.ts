// The one follow-up prompt that gathers a reviewer's line comments ("Refine").
import type { LineComment } from '../../state/ui-slice';

export function refinePrompt(comments: readonly LineComment[]): string {
  const lines = comments.map((comment) => {
    const where = `${comment.path}:${comment.line}${comment.side === 'old' ? ' (removed line)' : ''}`;
    return `- ${where}: ${comment.text.trim().replace(/\s*\n\s*/g, ' ')}`;
  });
  return ['Please refine your changes after these review comments:', '', ...lines].join('\n');
}
