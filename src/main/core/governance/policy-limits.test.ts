// The policy's `limits` as each agent gets them: one setting for every runner, `containerLimits` read as its alias.
import { describe, expect, it } from 'vitest';
import { PolicyFile } from '../../../shared/governance';
import { effectivePolicy } from './policy';

describe('the limits an agent gets from the policy', () => {
  it('takes limits from the defaults', () => {
    const file = PolicyFile.parse({ version: 1, defaults: { limits: { memoryMb: 300, pids: 64 } } });
    expect(effectivePolicy(file, 'codex').limits).toEqual({ memoryMb: 300, pids: 64 });
  });

  it('merges an agent\'s limits field by field over the defaults', () => {
    const file = PolicyFile.parse({ version: 1, defaults: { limits: { memoryMb: 2048, pids: 512 } }, agents: { codex: { limits: { pids: 64, cpus: 2 } } } });
    expect(effectivePolicy(file, 'codex').limits).toEqual({ memoryMb: 2048, pids: 64, cpus: 2 });
    expect(effectivePolicy(file, 'gemini').limits).toEqual({ memoryMb: 2048, pids: 512 });
  });

  it('still reads containerLimits, and lets limits win where both set a field', () => {
    const file = PolicyFile.parse({ version: 1, defaults: { containerLimits: { memoryMb: 1024, pids: 100 }, limits: { memoryMb: 300 } } });
    expect(effectivePolicy(file, 'codex').limits).toEqual({ memoryMb: 300, pids: 100 });
  });

  it('lets an agent\'s containerLimits override the defaults\' limits', () => {
    const file = PolicyFile.parse({ version: 1, defaults: { limits: { pids: 512 } }, agents: { codex: { containerLimits: { pids: 32 } } } });
    expect(effectivePolicy(file, 'codex').limits).toEqual({ pids: 32 });
  });

  it('leaves limits out when the policy sets none', () => {
    expect(effectivePolicy(PolicyFile.parse({ version: 1 }), 'codex').limits).toBeUndefined();
  });

  it('refuses a limit too small to run anything, naming the field', () => {
    const parsed = PolicyFile.safeParse({ version: 1, defaults: { limits: { pids: 2 } } });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues[0]?.path)).toBe('["defaults","limits","pids"]');
  });
});
