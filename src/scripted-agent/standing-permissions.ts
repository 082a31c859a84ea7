// "Always allow" as Claude Code answers it: after `offer-always` the agent's permission requests offer it too, and
// when chosen the agent writes a standing permission into `.claude/settings.local.json` in its working directory.
// Tests use it to see that the desk answers such a choice so that no standing permission is written.
import { join } from 'node:path';
import { readTextIfExists, writeTextCreatingDirs } from './disk-files';
import type { PermissionAsk, ScriptSink } from './script-sink';
import { ACP_TOOL_KINDS } from './user-input';

/** Where Claude Code keeps a project's local settings, its standing permissions among them. */
export const LOCAL_SETTINGS = join('.claude', 'settings.local.json');

export interface PermissionContext {
  cwd: string;
  sink: ScriptSink;
  signal: AbortSignal;
  /** Whether this turn offers "Always allow" (set by `offer-always`). */
  always?: { offered: boolean };
}

/** Asks the client; an "Always allow" answer is written down as a standing permission and counts as allow. */
export async function askPermission(context: PermissionContext, ask: PermissionAsk): Promise<'allow' | 'reject' | 'cancelled'> {
  const offered = context.always?.offered === true;
  const outcome = await context.sink.askPermission(offered ? { ...ask, offerAlways: true } : ask, context.signal);
  if (outcome !== 'allow-always') return outcome;
  await recordStandingPermission(context.cwd, 'call' in ask ? ACP_TOOL_KINDS[ask.call.tool] : 'other');
  return 'allow';
}

async function recordStandingPermission(cwd: string, kind: string): Promise<void> {
  const path = join(cwd, LOCAL_SETTINGS);
  let settings: { permissions?: { allow?: string[] } } = {};
  try {
    settings = JSON.parse(await readTextIfExists(path) ?? '{}') as typeof settings;
  } catch {
    // A file that does not parse is replaced, as an agent rewriting its own settings would.
  }
  const allow = [...new Set([...(settings.permissions?.allow ?? []), kind])];
  await writeTextCreatingDirs(path, `${JSON.stringify({ ...settings, permissions: { ...settings.permissions, allow } }, null, 2)}\n`);
}
