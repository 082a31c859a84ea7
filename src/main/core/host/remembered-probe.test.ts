import { describe, expect, it } from 'vitest';
import type { ProbeMemory } from './probe-memory';
import { answeredProbe, rememberedProbe, type RememberedProbeOptions } from './remembered-probe';

/** Memory in a Map, with the calls it received. */
function mapMemory(initial: Record<string, { fingerprint: string; value: unknown }> = {}) {
  const kept = new Map(Object.entries(initial));
  const writes: string[] = [];
  const memory: ProbeMemory = {
    recall: (name, fingerprint) => (kept.get(name)?.fingerprint === fingerprint ? kept.get(name)?.value : undefined),
    remember: (name, fingerprint, value) => { writes.push(`remember ${name}`); kept.set(name, { fingerprint, value }); },
    forget: (name) => { writes.push(`forget ${name}`); kept.delete(name); },
  };
  return { memory, kept, writes };
}

interface Answer { works: boolean; version: string }

/** A probe answering `answers` in turn, counting its runs; answers that work are kept, refusals never. */
function counted(answers: Answer[], { fingerprint }: { fingerprint: string | undefined } = { fingerprint: 'machine-1' }) {
  const runs = { count: 0 };
  const options: RememberedProbeOptions<Answer> = {
    name: 'trial',
    fingerprint,
    probe: async () => answers[runs.count++] as Answer,
    recall: (kept) => (typeof kept === 'object' && kept !== null && (kept as Answer).works === true ? kept as Answer : undefined),
    keep: (answer) => (answer.works ? answer : undefined),
  };
  return { options, runs };
}

describe('rememberedProbe', () => {
  it('starts from the answer kept under the same fingerprint, and runs the trial only when asked live', async () => {
    const { memory, writes } = mapMemory({ trial: { fingerprint: 'machine-1', value: { works: true, version: '1' } } });
    const { options, runs } = counted([{ works: true, version: '1' }]);
    const probe = rememberedProbe(memory, options);
    expect(probe.remembered).toBe(true);
    expect(await probe.first).toEqual({ works: true, version: '1' });
    expect(runs.count).toBe(0);
    expect(await probe.live()).toEqual({ works: true, version: '1' });
    expect(await probe.live()).toEqual({ works: true, version: '1' });
    expect(runs.count).toBe(1);
    // The same answer again: nothing rewritten.
    expect(writes).toEqual([]);
  });

  it('keeps the live answer when it differs, and forgets a kept one the machine no longer gives', async () => {
    const changed = mapMemory({ trial: { fingerprint: 'machine-1', value: { works: true, version: '1' } } });
    const newer = counted([{ works: true, version: '2' }]);
    expect(await rememberedProbe(changed.memory, newer.options).live()).toEqual({ works: true, version: '2' });
    expect(changed.kept.get('trial')?.value).toEqual({ works: true, version: '2' });

    const broken = mapMemory({ trial: { fingerprint: 'machine-1', value: { works: true, version: '1' } } });
    const refusing = counted([{ works: false, version: '1' }]);
    const probe = rememberedProbe(broken.memory, refusing.options);
    expect(await probe.first).toEqual({ works: true, version: '1' });
    expect(await probe.live()).toEqual({ works: false, version: '1' });
    expect(broken.writes).toEqual(['forget trial']);
  });

  it('asks live at once under another fingerprint, for an answer it may not start with, and without memory', async () => {
    const other = mapMemory({ trial: { fingerprint: 'machine-0', value: { works: true, version: '1' } } });
    const fresh = counted([{ works: true, version: '3' }]);
    const probe = rememberedProbe(other.memory, fresh.options);
    expect(probe.remembered).toBe(false);
    expect(await probe.first).toEqual({ works: true, version: '3' });
    expect(await probe.live()).toBe(await probe.first);
    expect(fresh.runs.count).toBe(1);
    expect(other.kept.get('trial')).toEqual({ fingerprint: 'machine-1', value: { works: true, version: '3' } });

    const refusal = mapMemory({ trial: { fingerprint: 'machine-1', value: { works: false, version: '1' } } });
    expect(rememberedProbe(refusal.memory, counted([{ works: false, version: '1' }]).options).remembered).toBe(false);

    const noFingerprint = mapMemory({ trial: { fingerprint: 'machine-1', value: { works: true, version: '1' } } });
    const unknown = counted([{ works: true, version: '4' }], { fingerprint: undefined });
    expect(await rememberedProbe(noFingerprint.memory, unknown.options).first).toEqual({ works: true, version: '4' });
    expect(noFingerprint.writes).toEqual([]);

    const none = counted([{ works: true, version: '5' }]);
    expect(await rememberedProbe(undefined, none.options).first).toEqual({ works: true, version: '5' });
  });

  it('answeredProbe stands for an answer given: no trial to run', async () => {
    const probe = answeredProbe<Answer>({ works: true, version: 'fixed' });
    expect(probe.remembered).toBe(false);
    expect(await probe.live()).toEqual({ works: true, version: 'fixed' });
  });
});
