// Session updates of kinds the SDK's schema does not know (a newer ACP, a vendor's extension): the SDK would drop
// them as invalid, so they are taken out of the stream first and reach the task as text.
import type { AgentUpdate } from '../../../shared/events';
import { isObject } from '../../../shared/is-object';

/** The `sessionUpdate` kinds of ACP v1 that the SDK parses (see its `zSessionUpdate`). */
export const KNOWN_UPDATE_KINDS: ReadonlySet<string> = new Set([
  'user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan',
  'available_commands_update', 'current_mode_update', 'config_option_update', 'session_info_update', 'usage_update',
  'notice', 'compaction_update', 'compaction_summary_chunk',
]);

/** How much of an unknown update is shown. */
const TEXT_LIMIT = 2000;

/** Readable words for an update the desk does not model: its text-like fields, else its JSON. Pure. */
export function updateAsText(update: Record<string, unknown>): string {
  const { sessionUpdate: _kind, ...rest } = update;
  const content = isObject(rest.content) ? rest.content : undefined;
  const words = [rest.title, rest.text, rest.message, rest.description, content?.text].filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  const text = words.length > 0 ? words.join(' — ') : JSON.stringify(rest);
  return text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT)}…` : text;
}

/** The update of a `session/update` notification when its kind is unknown, else undefined. Pure. */
export function unknownUpdateOf(message: unknown): Record<string, unknown> | undefined {
  if (!isObject(message) || message.method !== 'session/update' || 'id' in message || !isObject(message.params)) return undefined;
  const update = message.params.update;
  if (!isObject(update) || typeof update.sessionUpdate !== 'string' || KNOWN_UPDATE_KINDS.has(update.sessionUpdate)) return undefined;
  return update;
}

/** Takes an update of a kind the SDK does not know out of the conversation, to `onUpdate` as text: true when it did. */
export function tookUnknownUpdate(message: unknown, onUpdate: (update: AgentUpdate) => void): boolean {
  const unknown = unknownUpdateOf(message);
  if (!unknown) return false;
  onUpdate({ kind: 'other', name: String(unknown.sessionUpdate), data: unknown, text: updateAsText(unknown) });
  return true;
}
