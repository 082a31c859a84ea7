// Which session mode the desk puts an agent in once its sandbox confines it: the agent's own mode that leaves
// confinement to the desk (`confinedMode`), when the agent offers it. Pure: the task runner sets it and logs the line.
import { isObject } from '../../../shared/is-object';
import type { CapabilityMode } from '../../../shared/governance';
import type { AgentSpec } from './agent-spec';

export type ConfinedModeChoice =
  | { kind: 'set'; modeId: string; log: string }
  | { kind: 'missing'; log: string };

/** The modes a `session/new` answer offered, read without trusting its shape. */
function offeredModes(modes: unknown): { ids: Map<string, string>; current?: string } {
  const ids = new Map<string, string>();
  if (!isObject(modes)) return { ids };
  for (const mode of Array.isArray(modes.availableModes) ? modes.availableModes : []) {
    if (isObject(mode) && typeof mode.id === 'string') ids.set(mode.id, typeof mode.name === 'string' ? mode.name : mode.id);
  }
  return { ids, ...(typeof modes.currentModeId === 'string' && { current: modes.currentModeId }) };
}

/**
 * `undefined` when nothing is to change: the agent names no confined mode, the desk does not confine it (it then
 * keeps its own mode and sandbox), or it is in that mode already.
 */
export function confinedModeChoice(
  spec: Pick<AgentSpec, 'name' | 'confinedMode' | 'confinedAskMode'>, confined: boolean, modes: unknown, commands: CapabilityMode = 'allow',
): ConfinedModeChoice | undefined {
  // A mode that runs commands unasked would let them past a policy that asks: the agent's asking mode wins then.
  const asking = commands !== 'allow' && spec.confinedAskMode !== undefined;
  const wanted = asking ? spec.confinedAskMode : spec.confinedMode;
  if (wanted === undefined || !confined) return undefined;
  const offered = offeredModes(modes);
  if (offered.current === wanted) return undefined;
  const name = offered.ids.get(wanted);
  if (name === undefined) {
    const list = [...offered.ids.keys()].join(', ') || 'none';
    return {
      kind: 'missing',
      log: `${spec.name} offers no mode "${wanted}" (it offers: ${list}), so it keeps its own sandbox inside the desk's; commands it runs there may fail. Set "confinedMode" for this agent in agents.json to one it offers.`,
    };
  }
  return {
    kind: 'set',
    modeId: wanted,
    log: asking
      ? `The desk's sandbox confines ${spec.name} and the policy asks before commands, so it runs in its mode "${name}" (${wanted}): it asks before each command it runs outside its own sandbox, which cannot start inside the desk's (its other commands fail there until it asks).`
      : `The desk's sandbox confines ${spec.name}, so it runs in its mode "${name}" (${wanted}): its own sandbox cannot start inside the desk's, and the desk's sandbox is the one that holds.`,
  };
}
