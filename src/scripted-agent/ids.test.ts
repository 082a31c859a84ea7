// The scripted agent's ids look like the UUIDs clients are used to and do not repeat.
import { describe, expect, it } from 'vitest';
import { newId } from './ids';

describe('the scripted agent ids', () => {
  it('are version-4 UUID strings, none repeated in ten thousand', () => {
    const ids = Array.from({ length: 10_000 }, () => newId());
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
