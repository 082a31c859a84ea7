// Turns the headless host's ES modules, once electron-vite has written them, into one script beside the entry
// (out/main/serve-host.script.js): a CommonJS module already wrapped in the function `require` would put around it.
// Node 20 cannot keep V8's compiled code for ES modules, but it can for a script: the entry compiles this file with a
// code cache (src/main/code-cache.ts), which takes 50–90 ms off every start after the first. The file is made from
// the bundles just written, not from the sources again, so it is the same code the ES-module build runs. Modules the
// host imports lazily stay lazy: each is evaluated on its first import.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'rolldown';
import { parseAst } from 'rolldown/parseAst';
import type { Plugin } from 'vite';
import { HOST_BUNDLE, HOST_BUNDLE_WRAPPER } from '../src/main/host-bundle';

/** `entry`: the source module whose built chunk becomes the bundle (src/main/serve-host.ts). */
export function hostBundlePlugin(entry: string): Plugin {
  return {
    name: 'assignment-desk:host-bundle',
    apply: 'build',
    async writeBundle(output, bundle) {
      const chunk = Object.values(bundle).find((item) => item.type === 'chunk' && item.facadeModuleId === entry);
      if (!chunk) return; // another electron-vite build (preload, renderer) or a main build without the host
      const outDir = output.dir ?? '';
      const { output: [written] } = await build({
        input: join(outDir, chunk.fileName),
        platform: 'node',
        // What the ES-module build left to node_modules (node-pty, …) stays there; `node:` modules too. Except
        // better-sqlite3's JavaScript, which every start loads: from node_modules it is 15 files Node finds, reads and
        // compiles one by one (5–8 ms of the start), here it comes with the bundle's cached code. Its binary stays
        // in node_modules, named when the database opens (core/store/sqlite-binding.ts).
        external: (id) => !id.startsWith('.') && !id.startsWith('/') && id !== 'better-sqlite3',
        logLevel: 'warn',
        write: false,
        output: {
          format: 'cjs', codeSplitting: false,
          // V8 keeps the source in memory (for functions compiled later): in ASCII it takes one byte a character, not two.
          charset: 'ascii', comments: false,
          // `import()` of what stays in node_modules (dockerode) becomes `require`: see dynamicImportsIn.
          dynamicImportInCjs: false,
        },
      });
      const left = dynamicImportsIn(written.code);
      if (left > 0) throw new Error(`${HOST_BUNDLE} would have ${left} dynamic import() expression(s), which fail in code V8 takes from its cache.`);
      if (/[^\x00-\x7f]/.test(written.code)) this.warn(`${HOST_BUNDLE} is not all ASCII: V8 keeps its source at two bytes a character.`);
      // Wrapped here, not at load: wrapping there copies the 2 MB source, and both copies stay until a full GC.
      await writeFile(join(outDir, HOST_BUNDLE), `${HOST_BUNDLE_WRAPPER.head}${written.code}${HOST_BUNDLE_WRAPPER.tail}`);
    },
  };
}

/**
 * How many `import()` expressions the code has. Code that V8 takes from its cache on Node 20 has lost what `import()`
 * needs (it throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING on the second start, not the first), so the bundle must
 * have none. Counted on the syntax tree, not the text, where comments and strings may mention `import('…')`.
 */
export function dynamicImportsIn(code: string): number {
  // Parsing 1.7 MB takes about half a second of every build; code without the text cannot have the expression.
  if (!/\bimport\s*\(/.test(code)) return 0;
  let count = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!node || typeof node !== 'object') return;
    if ((node as { type?: unknown }).type === 'ImportExpression') count += 1;
    for (const value of Object.values(node)) if (value && typeof value === 'object') visit(value);
  };
  visit(parseAst(code));
  return count;
}
