// Which better-sqlite3 binary a runtime loads. Node (tests, `npm run serve`) uses the package's own build in
// node_modules; Electron uses a separate build under out/native/, named by everything that changes the binary,
// so building one never overwrites the other and `npm start` and `npm test` can alternate. Pure.
import { join, sep } from 'node:path';

export interface BindingTarget {
  betterSqliteVersion: string;
  /** NODE_MODULE_VERSION of the runtime (`process.versions.modules`; node_modules/electron/abi_version). */
  abi: string;
  platform: string;
  arch: string;
}

export const BINDING_FILE = 'better_sqlite3.node';

/** e.g. `better-sqlite3-12.11.1-electron-abi140-linux-x64`. */
export function electronBindingDirName(target: BindingTarget): string {
  return `better-sqlite3-${target.betterSqliteVersion}-electron-abi${target.abi}-${target.platform}-${target.arch}`;
}

/** `<outDir>/native/<name>/better_sqlite3.node`, where the rebuild script writes and the app reads. */
export function electronBindingFile(outDir: string, target: BindingTarget): string {
  return join(outDir, 'native', electronBindingDirName(target), BINDING_FILE);
}

export interface RuntimeFacts {
  /** `process.versions`: `electron` is present only inside Electron. */
  versions: { electron?: string; modules: string };
  platform: string;
  arch: string;
  /** The build's out/ folder (next to out/main). */
  outDir: string;
  betterSqliteVersion: string;
}

/** The `nativeBinding` to open the database with: none under Node (better-sqlite3 finds its own), the Electron build under Electron. */
export function nativeBindingFor(facts: RuntimeFacts): string | undefined {
  if (!facts.versions.electron) return undefined;
  const file = electronBindingFile(facts.outDir, {
    betterSqliteVersion: facts.betterSqliteVersion, abi: facts.versions.modules, platform: facts.platform, arch: facts.arch,
  });
  return asarUnpacked(file);
}

/** A packaged app reads its code from app.asar, but the OS loads native code only from app.asar.unpacked. */
export function asarUnpacked(path: string): string {
  return path.split(sep).map((part) => (part === 'app.asar' ? 'app.asar.unpacked' : part)).join(sep);
}

/** Why a rebuild failed, from node-gyp's output: no network for Electron's headers, or no compiler toolchain. */
export function rebuildFailureKind(output: string): 'network' | 'toolchain' {
  return /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|CERT_|certificate|proxy|network connectivity)\b/i.test(output)
    ? 'network' : 'toolchain';
}
