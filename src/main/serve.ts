// Headless host entry (`node out/main/serve.js`, `npm run serve`): the core plus its HTTP endpoint in plain Node.
// Built, it runs the host from the one-file bundle beside it with V8's code cache (code-cache.ts), which Node can keep
// for a script but not for ES modules; from source (tsx src/main/serve.ts) there is no bundle and it imports the host.
// Keep its static imports to the loader and what it starts early: everything else the host needs is in the bundle.
// Built, this file is CommonJS (out/main/serve.cjs) behind a two-line ES module at out/main/serve.js
// (build/standalone-entries-plugin.ts): Node's ES-module loader then reads one small file, and Node's own modules come
// from its CommonJS loader, not as ES-module facades (about 4 ms of CPU of a start). Hence no top-level `await`.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { codeCacheDir, loadWithCodeCache } from './code-cache';
import { HOST_BUNDLE } from './host-bundle';
import { probeMemoryIn, rememberedSandboxProbe, startRepositoryDiscovery } from './core/early-start';
import { probeMemoryDir } from './desk-cache-dir';
import { firstRepoArgument } from './serve-first-repo';
import type { runServe } from './serve-host';

type ServeHost = { runServe: typeof runServe };

// Started first: the repository is found and bubblewrap's trial run takes place while the host's code loads, and
// processes are cheaper to start from this small process than from the loaded host. The repository first: its answer
// is needed first (a plain checkout is read from its files, no git process: core/git/repository-files.ts).
// Bubblewrap's trial runs here only when the last start's answer cannot be recalled (the machine changed, or it had no
// sandbox); otherwise the core runs it once the first requests are answered (core/sandbox/machine-check.ts).
const repoPath = firstRepoArgument(process.argv.slice(2));
const repository = repoPath === undefined ? undefined : startRepositoryDiscovery(repoPath);
const probeMemory = probeMemoryIn(probeMemoryDir(process.platform, process.env, homedir()));
const sandbox = rememberedSandboxProbe(probeMemory);
const bundle = fileURLToPath(new URL(HOST_BUNDLE, import.meta.url));
const argv = process.argv.slice(2);
const early = { sandbox, probeMemory, ...(repository && { repository }) };
if (existsSync(bundle)) {
  // Held for the process's life: so are the bundle's bytes (`bytes`, see code-cache.ts).
  const host = loadWithCodeCache<ServeHost>(bundle, codeCacheDir(process.platform, process.env, homedir()));
  // Once listening, before the host tunes V8: the code kept then includes what the start-up compiled.
  host.exports.runServe(argv, import.meta.url, { started: host.keep }, early);
} else {
  // From source; built, the host's own ES-module build beside it. Named at run time, so that the build neither follows
  // nor bundles the host's modules into this entry.
  const modules = new URL(import.meta.url.endsWith('.ts') ? './serve-host.ts' : './serve-host.js', import.meta.url).href;
  void (import(modules) as Promise<ServeHost>).then((host) => host.runServe(argv, import.meta.url, {}, early));
}
