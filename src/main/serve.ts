// Headless host entry (`node out/main/serve.js`, `npm run serve`): the core plus its HTTP endpoint in plain Node.
// It turns Node's compile cache on first and only then loads the host, so the bundles it pulls in are compiled with
// the cache (Node 22+; on Node 20 this costs nothing and changes nothing). Keep its static imports to compile-cache.ts.
import { enableCompileCache } from './compile-cache';

enableCompileCache();
const { runServe } = await import('./serve-host');
runServe(process.argv.slice(2), import.meta.url);
