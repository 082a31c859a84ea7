// The policy editor's one value, read and changed two ways: as JSON text (for experts, every field) and through the
// form (the defaults every agent gets). Pure; the JSON text is the value, so neither view can lose what the other did.

/** A JSON object as the editor holds it; the desk checks it against the policy schema when it is saved. */
export type PolicyValue = Record<string, unknown>;

export type Parsed = { ok: true; value: PolicyValue } | { ok: false; error: string };

export function parsePolicy(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'The policy must be a JSON object.' };
  return { ok: true, value: value as PolicyValue };
}

export const formatPolicy = (value: PolicyValue): string => JSON.stringify(value, null, 2);

/** The `defaults` object of a policy (empty when absent or not an object). */
export function defaultsOf(value: PolicyValue): Record<string, unknown> {
  const defaults = value.defaults;
  return typeof defaults === 'object' && defaults !== null && !Array.isArray(defaults) ? (defaults as Record<string, unknown>) : {};
}

/** The policy with `defaults[key]` set, or removed when `field` is undefined (the built-in default applies again). */
export function withDefault(value: PolicyValue, key: string, field: unknown): PolicyValue {
  const { [key]: _, ...rest } = defaultsOf(value);
  return { ...value, defaults: field === undefined ? rest : { ...rest, [key]: field } };
}

/** The policy with one capability's mode set, or removed (`undefined`: the built-in mode applies). */
export function withCapability(value: PolicyValue, capability: string, mode: string | undefined): PolicyValue {
  const current = defaultsOf(value).capabilities;
  const capabilities = typeof current === 'object' && current !== null ? { ...(current as Record<string, unknown>) } : {};
  if (mode === undefined) delete capabilities[capability];
  else capabilities[capability] = mode;
  return withDefault(value, 'capabilities', capabilities);
}

/** A list field's text, one entry a line. */
export const listText = (list: unknown): string => (Array.isArray(list) ? list.map(String).join('\n') : '');
/** Lines to a list: trimmed, empty ones dropped. */
export const linesOf = (text: string): string[] => text.split('\n').map((line) => line.trim()).filter((line) => line !== '');

/** A limit field's text to its value: empty is "no limit" (undefined); anything else is kept as typed for the desk to check. */
export function limitOf(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : trimmed;
}
