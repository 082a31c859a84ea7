// src/shared's lazily built schemas (lazy-schema.ts): each behaves as the schema it stands for, and costs nothing until something uses it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema } from '../../../shared/lazy-schema';

describe('lazySchema', () => {
  it('builds nothing until the schema is first used, and builds it once', () => {
    let builds = 0;
    const Name = lazySchema(() => {
      builds += 1;
      return z.string().min(1);
    });
    expect(builds).toBe(0);
    Name.parse('a');
    Name.safeParse('');
    expect(builds).toBe(1);
  });

  it('accepts and refuses what the schema does, with the same messages', () => {
    const eager = z.strictObject({ id: z.string().min(1, 'must not be empty'), tries: z.int().default(1) });
    const lazy = lazySchema(() => z.strictObject({ id: z.string().min(1, 'must not be empty'), tries: z.int().default(1) }));
    expect(lazy.parse({ id: 'a' })).toEqual({ id: 'a', tries: 1 });
    expect(lazy.safeParse({ id: '' }).error?.issues).toEqual(eager.safeParse({ id: '' }).error?.issues);
    expect(lazy.safeParse({ id: 'a', extra: 1 }).error?.issues).toEqual(eager.safeParse({ id: 'a', extra: 1 }).error?.issues);
  });

  it('composes like the schema: nested, extended, optional, in a discriminated union', () => {
    const Kind = lazySchema(() => z.enum(['a', 'b']));
    const Base = lazySchema(() => z.object({ kind: Kind }));
    const Wide = lazySchema(() => Base.extend({ note: z.string().optional() }));
    const Either = z.discriminatedUnion('kind', [Wide, z.object({ kind: z.literal('c') })]);
    expect(Either.parse({ kind: 'b', note: 'x' })).toEqual({ kind: 'b', note: 'x' });
    expect(Either.safeParse({ kind: 'd' }).success).toBe(false);
    expect(Wide.optional().parse(undefined)).toBeUndefined();
    expect(Object.keys(Wide.shape)).toEqual(['kind', 'note']);
  });

  it('is the same object everywhere, so a registry keyed by it finds it inside other schemas', () => {
    const Task = lazySchema(() => z.object({ id: z.string() }));
    const List = z.object({ tasks: z.array(Task) });
    const components = z.registry<{ id: string }>();
    components.add(Task, { id: 'Task' });
    const document = z.toJSONSchema(List, { metadata: components });
    expect(JSON.stringify(document)).toContain('"$ref":"#/$defs/Task"');
  });

  it('answers instanceof as the schema does', () => {
    const Task = lazySchema(() => z.object({ id: z.string() }));
    expect(Task).toBeInstanceOf(z.ZodObject);
    expect(Task).not.toBeInstanceOf(z.ZodString);
  });
});
