import { describe, expect, it } from 'vitest';
import { confinedModeChoice } from './confined-mode';

const codex = { name: 'Codex', confinedMode: 'agent-full-access', confinedAskMode: 'workspace-write' };
// What codex-acp 2.6.0 answers to session/new, offline.
const codexModes = {
  availableModes: [
    { id: 'read-only', name: 'Read-only' }, { id: 'workspace-write', name: 'Workspace access' },
    { id: 'agent', name: 'Auto review' }, { id: 'agent-full-access', name: 'Full access' },
  ],
  currentModeId: 'agent',
};

describe('confinedModeChoice', () => {
  it('puts an agent that sandboxes itself in the mode that leaves it to the desk, when the desk confines it', () => {
    expect(confinedModeChoice(codex, true, codexModes)).toEqual({ kind: 'set', modeId: 'agent-full-access', log: expect.stringContaining('The desk\'s sandbox confines Codex, so it runs in its mode "Full access" (agent-full-access)') });
  });

  it('leaves the agent its own mode and sandbox when the desk does not confine it', () => {
    expect(confinedModeChoice(codex, false, codexModes)).toBeUndefined();
  });

  it('changes nothing for an agent that names no confined mode', () => {
    expect(confinedModeChoice({ name: 'Claude Code' }, true, codexModes)).toBeUndefined();
  });

  it('changes nothing when the agent is in that mode already', () => {
    expect(confinedModeChoice(codex, true, { ...codexModes, currentModeId: 'agent-full-access' })).toBeUndefined();
  });

  it('says what the agent offers instead when it lacks the mode', () => {
    expect(confinedModeChoice(codex, true, { availableModes: [{ id: 'ask' }], currentModeId: 'ask' })).toEqual({
      kind: 'missing', log: expect.stringContaining('Codex offers no mode "agent-full-access" (it offers: ask)'),
    });
    expect(confinedModeChoice(codex, true, undefined)).toMatchObject({ kind: 'missing', log: expect.stringContaining('(it offers: none)') });
  });

  it('confines it in its asking mode when the policy asks before commands, so the question reaches a person', () => {
    expect(confinedModeChoice(codex, true, codexModes, 'ask')).toEqual({ kind: 'set', modeId: 'workspace-write', log: expect.stringContaining('the policy asks before commands') });
    expect(confinedModeChoice(codex, true, codexModes, 'deny')).toMatchObject({ kind: 'set', modeId: 'workspace-write' });
    expect(confinedModeChoice(codex, true, codexModes, 'allow')).toMatchObject({ kind: 'set', modeId: 'agent-full-access' });
    expect(confinedModeChoice({ name: 'Other', confinedMode: 'full' }, true, { availableModes: [{ id: 'full' }] }, 'ask')).toMatchObject({ modeId: 'full' });
  });
});
