import { describe, expect, it } from 'vitest';
import { withChanges } from './with-changes';

describe('withChanges', () => {
  it('copies the record with the changes on top, keys in the order a spread gives them', () => {
    const record = { id: 't', status: 'queued', attempt: 0 };
    const changed = withChanges(record, { status: 'in-progress', seq: 4 });
    expect(changed).toEqual({ id: 't', status: 'in-progress', attempt: 0, seq: 4 });
    expect(Object.keys(changed)).toEqual(Object.keys({ ...record, ...{ status: 'in-progress', seq: 4 } }));
    expect(record).toEqual({ id: 't', status: 'queued', attempt: 0 });
  });
});
