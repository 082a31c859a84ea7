// Bundles the core's test door for the benches (see built-desk.ts), in a process of its own: rolldown keeps a few
// hundred MB once it has built, and in the desk's process that memory would make every process the desk forks cost
// more (fork copies the page tables of what a process has touched) than in the app, which never loads a bundler.
// Usage: node bench/bundle-desk.mjs <input.ts> <output.mjs>
import { isAbsolute } from 'node:path';
import { build } from 'rolldown';

const [input, file] = process.argv.slice(2);
if (!input || !file) {
  process.stderr.write('usage: node bench/bundle-desk.mjs <input.ts> <output.mjs>\n');
  process.exit(2);
}
await build({
  input,
  platform: 'node',
  external: (id) => !id.startsWith('.') && !isAbsolute(id),
  logLevel: 'warn',
  output: { file, format: 'esm', codeSplitting: false },
});
