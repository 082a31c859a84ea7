// The SQLite binary better-sqlite3 loads when it is given none: found the way the package finds it (its `bindings`
// look-up), but from the package's own folder. The headless host carries better-sqlite3's JavaScript in its one-file
// bundle (build/host-bundle-plugin.ts), where that look-up would start from the bundle's folder and find nothing.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/** The part of the `bindings` package better-sqlite3 uses: with `path`, where the binary is, not the binary. */
type Bindings = (options: { bindings: string; module_root: string; path: true }) => string;

/** The absolute path of node_modules' better-sqlite3 binary (the Node build); throws as better-sqlite3 would without one. */
export function packagedSqliteBinding(): string {
  const packageJson = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
  // Resolved from better-sqlite3's folder: the copy of `bindings` the package itself would use.
  const bindings = createRequire(packageJson)('bindings') as Bindings;
  return bindings({ bindings: 'better_sqlite3.node', module_root: dirname(packageJson), path: true });
}
