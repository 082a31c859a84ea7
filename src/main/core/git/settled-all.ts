// Promise.all that lets every step finish before it throws: a step still writing when its neighbour failed must not
// race the caller's undo of what the steps made.

/** Waits for every promise; throws the first rejection (in the order given) once all have settled. */
export async function settledAll(steps: readonly Promise<unknown>[]): Promise<void> {
  const settled = await Promise.allSettled(steps);
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}
