// The mode an agent that sandboxes itself is put in when the desk confines it (so its own sandbox does not nest in the
// desk's), and the line the task's log gets about it.
import type { TaskEvent } from '../../../shared/events';
import type { CapabilityMode } from '../../../shared/governance';
import { isObject } from '../../../shared/is-object';
import type { AgentSession } from '../agents/agent-session';
import type { AgentSpec } from '../agents/agent-spec';
import { confinedModeChoice } from '../agents/confined-mode';

/** What the mode change needs of a turn's run (the runner's RunContext, of which it takes only these). */
export interface SessionModeContext {
  record(event: TaskEvent): void;
  /** What the policy says of the agent's commands (`execute`), for the mode it is confined in; default `allow`. */
  commandMode?: CapabilityMode;
}

/**
 * An agent that sandboxes itself is put in its mode that leaves that to the desk, when the desk confines it, and the
 * task's log says so. Returns the session's modes as they now are.
 */
export async function applyConfinedMode(context: SessionModeContext, session: AgentSession, spec: AgentSpec, confined: boolean): Promise<unknown> {
  const { modes } = session.features;
  const choice = confinedModeChoice(spec, confined, modes, context.commandMode);
  if (choice === undefined) return modes;
  const log = (text: string, level: 'info' | 'warn') => context.record({ type: 'log', level, source: 'desk', text });
  if (choice.kind === 'missing') {
    log(choice.log, 'warn');
    return modes;
  }
  try {
    await session.setMode(choice.modeId);
  } catch (error) {
    log(`${spec.name} refused its mode "${choice.modeId}" (${error instanceof Error ? error.message : String(error)}), so it keeps its own sandbox inside the desk's; commands it runs there may fail.`, 'warn');
    return modes;
  }
  log(choice.log, 'info');
  return isObject(modes) ? { ...modes, currentModeId: choice.modeId } : modes;
}
