// A zod schema that is built the first time something uses it, not when its module loads. The contract declares
// about 1,700 schemas; building them all took a fifth of the headless host's cold start, and most are first needed
// long after the desk answers its first request (or never, in a given run).
import type { z } from 'zod';

/**
 * Stands for the schema `build` returns, building it on first use. The result is one object for the program's whole
 * life: schemas that contain it, registries keyed by it (the OpenAPI components) and `instanceof` all see the same
 * thing, and every method zod binds is bound to it. `build` runs once; it must not read the schema it defines (use
 * `z.lazy` for a recursive schema, as without this).
 */
export function lazySchema<T extends z.ZodType>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  // The proxy's own target is an empty stand-in: every operation goes to the built schema, with the proxy as the
  // receiver, so the methods zod binds on first access are bound to the proxy and what they make refers to it.
  const handler: ProxyHandler<object> = {
    get: (_standIn, key, receiver) => Reflect.get(schema(), key, receiver),
    set: (_standIn, key, value, receiver) => Reflect.set(schema(), key, value, receiver),
    has: (_standIn, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_standIn, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may not call a property fixed that its stand-in lacks (zod fixes `_zod`); it still cannot be changed.
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_standIn, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_standIn, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  };
  return new Proxy({}, handler) as T;
}
