// Reading a field of a value that came from another process, without trusting its shape.
import { isObject } from '../shared/is-object';

export function fieldOf(value: unknown, key: string): unknown {
  return isObject(value) ? value[key] : undefined;
}
