// The tokens an agent reported, per turn and per task, and how the board says them. Pure.
import type { TurnTokens, UsageCost } from '../../../shared/events';

/** What one turn (or the whole task) reported: tokens by kind, the context last in use, the cost so far. */
export interface TokenUsage {
  tokens?: TurnTokens;
  context?: { used: number; size: number };
  cost?: UsageCost;
}

const OPTIONAL = ['thoughtTokens', 'cachedReadTokens', 'cachedWriteTokens'] as const;

/** Two tallies of tokens added kind by kind; an optional kind only where either counted it. */
export function addTokens(a: TurnTokens | undefined, b: TurnTokens): TurnTokens {
  if (!a) return b;
  const sum: TurnTokens = { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens, totalTokens: a.totalTokens + b.totalTokens };
  for (const key of OPTIONAL) {
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return sum;
}

const count = (n: number) => n.toLocaleString('en-US');

/** "1,500 in · 300 out · 1,800 tokens · context 1,800 of 200,000 · 0.0123 USD": what was reported, nothing more. */
export function usageText(usage: TokenUsage): string {
  const parts: string[] = [];
  const { tokens, context, cost } = usage;
  if (tokens) {
    parts.push(`${count(tokens.inputTokens)} in`, `${count(tokens.outputTokens)} out`);
    if (tokens.thoughtTokens) parts.push(`${count(tokens.thoughtTokens)} thinking`);
    if (tokens.cachedReadTokens) parts.push(`${count(tokens.cachedReadTokens)} from cache`);
    parts.push(`${count(tokens.totalTokens)} tokens`);
  }
  if (context) parts.push(`context ${count(context.used)} of ${count(context.size)}`);
  // Agents report a session's cost so far, so a turn shows the running figure, not its own share.
  if (cost) parts.push(`${cost.currency === 'USD' ? `$${cost.amount.toFixed(4)}` : `${cost.amount} ${cost.currency}`} so far`);
  return parts.join(' · ');
}
