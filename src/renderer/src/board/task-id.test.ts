import { describe, expect, it } from 'vitest';
import { generateTaskId } from './task-id';

describe('generateTaskId', () => {
  it('makes an id like task-<random hex> when the person leaves it empty', () => {
    expect(generateTaskId((bytes) => bytes.fill(171))).toBe('task-abababab');
  });
});
