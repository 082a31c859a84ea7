// The pure rule behind the dependency pickers: which tasks are offered and why the others are not.
import { describe, expect, it } from 'vitest';
import { dependencyOffers, notOfferedText, type OfferableTask } from '../../../shared/dependency-offers';

const task = (id: string, status: OfferableTask['status'] = 'queued', dependencies: string[] = []): OfferableTask => ({ id, title: `Title of ${id}`, status, dependencies });

describe('dependencyOffers', () => {
  it('offers queued and running tasks, not finished ones, saying why', () => {
    const offers = dependencyOffers('mine', [], [task('mine'), task('running', 'in-progress'), task('asking', 'awaiting-input'), task('merged', 'completed'), task('broken', 'error')]);
    expect(offers.filter((o) => !o.notOffered).map((o) => o.id)).toEqual(['running', 'asking']);
    expect(offers.find((o) => o.id === 'merged')?.notOffered).toEqual({ kind: 'finished', status: 'completed' });
    expect(notOfferedText({ kind: 'finished', status: 'error' })).toBe('finished (failed): nothing left to wait for');
    expect(offers.find((o) => o.id === 'mine')?.notOffered).toEqual({ kind: 'self' });
  });

  it('does not offer a task that waits for this one, directly or through others, and names the cycle', () => {
    const offers = dependencyOffers('a', [], [task('a'), task('b', 'queued', ['a']), task('c', 'queued', ['b']), task('d')]);
    expect(offers.find((o) => o.id === 'b')?.notOffered).toEqual({ kind: 'cycle', cycle: ['a', 'b', 'a'] });
    expect(offers.find((o) => o.id === 'c')?.notOffered).toEqual({ kind: 'cycle', cycle: ['a', 'c', 'b', 'a'] });
    expect(notOfferedText({ kind: 'cycle', cycle: ['a', 'c', 'b', 'a'] })).toBe('would close a cycle: a → c → b → a');
    expect(offers.find((o) => o.id === 'd')?.notOffered).toBeUndefined();
  });

  it('marks tasks already waited for, and offers everything unfinished to a task that has no id yet', () => {
    expect(dependencyOffers('a', ['d'], [task('a'), task('d')]).find((o) => o.id === 'd')?.notOffered).toEqual({ kind: 'already' });
    expect(dependencyOffers(undefined, [], [task('x', 'queued', ['y']), task('y', 'queued', ['x'])]).every((o) => !o.notOffered)).toBe(true);
  });

  it('sees a cycle through a task that waits for a new id not submitted yet', () => {
    // "later" waits for "new-one", which does not exist yet: the new task must not wait for "later".
    const offers = dependencyOffers('new-one', [], [task('later', 'queued', ['new-one'])]);
    expect(offers[0]?.notOffered).toEqual({ kind: 'cycle', cycle: ['new-one', 'later', 'new-one'] });
  });
});
