// The one guard for "a plain JSON object" when reading values that came from another process.

/** True for a non-null, non-array object, so its fields may be read as unknowns. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
