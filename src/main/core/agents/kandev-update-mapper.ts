// Turns a Kandev `session/update` ({type, data}) into the desk's AgentUpdate. Pure; `complete`/`error` end turns elsewhere.
import type { AgentUpdate, ToolCallStatus } from '../../../shared/events';
import { isObject } from '../../../shared/is-object';

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Kandev names tools; ACP classifies them. */
const TOOL_KINDS: Record<string, string> = {
  file_edit: 'edit', write_file: 'edit', append_file: 'edit', edit_file: 'edit', delete_file: 'delete', move_file: 'move',
  read_file: 'read', run_command: 'execute', shell: 'execute', search: 'search', fetch: 'fetch',
};

const STATUSES: Record<string, ToolCallStatus> = {
  pending: 'pending', running: 'in_progress', in_progress: 'in_progress', completed: 'completed', success: 'completed', failed: 'failed', error: 'failed',
};

/**
 * Maps one update. `seenToolCalls` remembers ids already announced, so a tool's first update becomes
 * a `tool-call` and later ones `tool-call-update`s; tools without an id get one from their order.
 */
export function mapKandevUpdate(params: unknown, seenToolCalls: Set<string>): AgentUpdate | undefined {
  if (!isObject(params)) return undefined;
  const type = str(params.type);
  const data = isObject(params.data) ? params.data : {};
  switch (type) {
    case 'content':
      return { kind: 'message', role: data.thought === true ? 'thought' : 'agent', text: str(data.text) ?? '' };
    case 'plan':
      return {
        kind: 'plan',
        entries: (Array.isArray(data.entries) ? data.entries : []).filter(isObject).map((e) => ({
          content: str(e.content) ?? '', ...(str(e.priority) && { priority: str(e.priority) }), ...(str(e.status) && { status: str(e.status) }),
        })),
      };
    case 'toolCall': {
      const toolName = str(data.toolName) ?? 'tool';
      const toolCallId = str(data.toolCallId) ?? `${toolName}-${seenToolCalls.size + 1}`;
      const first = !seenToolCalls.has(toolCallId);
      seenToolCalls.add(toolCallId);
      const args = isObject(data.args) ? data.args : {};
      const path = str(args.path) ?? str(args.file);
      const status = STATUSES[str(data.status) ?? ''];
      const output = data.result ?? data.error;
      return {
        kind: first ? 'tool-call' : 'tool-call-update',
        toolCallId,
        ...(first && { title: path ? `${toolName} ${path}` : (str(args.command) ?? toolName), toolKind: TOOL_KINDS[toolName] ?? 'other', rawInput: args }),
        ...(status && { status }),
        ...(first && path && { locations: [{ path }] }),
        ...(typeof output === 'string' && { content: [{ type: 'content', content: { type: 'text', text: output } }] }),
      };
    }
    default:
      return { kind: 'other', name: type ?? 'unknown', data: params };
  }
}
