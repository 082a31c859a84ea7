// Makes the small programs a task starts (the sandbox's bridge and its preload, the dev server's forwarder, the
// scripted agent) one file each once electron-vite has written them: Node's ES-module loader pays per file, and these
// load once per task, in the agent's own start. Measured with the bridge's preload: 70.5 ms of CPU for a Node loading
// it as three files against 64.6 as one (a Node loading nothing: 62.4). Made from the files just written, so it is
// the same code; the shared chunks stay for the desk's own entries.
// `cjs` entries become `<name>.cjs` (the ES-module file is removed): a Node whose entry and preload are CommonJS never
// starts its ES-module loader, about 5 ms of CPU per start. Their lazy imports (the scripted agent's MCP client) become
// CommonJS chunks `require`d on first use. An `esm` entry may have none: one file would hold them all, and Node would
// read and scan them at every start. A `cjs-behind-esm` entry is one a person starts by its name (`node out/main/serve.js`),
// which the package's type makes an ES module: it becomes `<name>.cjs`, and `<name>.js` two lines that require it. Node
// then loads one small ES module, and the rest with its CommonJS loader (measured on the headless host: ~4 ms of CPU).
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'rolldown';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/** How each standalone program is written. */
export type StandaloneFormat = 'esm' | 'cjs' | 'cjs-behind-esm';

/** The ES module left at a `cjs-behind-esm` entry's name: it runs the entry's CommonJS build beside it. */
export function esmShimFor(cjsFileName: string): string {
  return `// Runs ${cjsFileName} (build/standalone-entries-plugin.ts): its CommonJS loads without Node's ES-module loader.\n`
    + `import { createRequire } from 'node:module';\ncreateRequire(import.meta.url)('./${cjsFileName}');\n`;
}

/** `entries`: the names of the build's inputs to make standalone, and the format of each. */
export function standaloneEntriesPlugin(entries: Readonly<Record<string, StandaloneFormat>>): Plugin {
  return {
    name: 'assignment-desk:standalone-entries',
    apply: 'build',
    async writeBundle(output, bundle) {
      const outDir = output.dir ?? '';
      const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' && item.isEntry && entries[item.name] ? [item] : []));
      for (const chunk of chunks) {
        const format = entries[chunk.name] ?? 'esm';
        if (format !== 'cjs' && chunk.dynamicImports.length > 0) throw new Error(`${chunk.fileName} imports modules lazily: making it one file would load them at every start.`);
        const input = join(outDir, chunk.fileName);
        const { output: written } = await build({
          input,
          platform: 'node',
          // What the build left to node_modules and Node's own modules stay outside.
          external: (id) => !id.startsWith('.') && !id.startsWith('/'),
          logLevel: 'warn',
          write: false,
          output: format === 'esm'
            ? { format: 'esm', codeSplitting: false }
            : format === 'cjs-behind-esm'
            ? { format: 'cjs', entryFileNames: `${chunk.name}.cjs`, codeSplitting: false }
            // Lazy chunks beside the desk's own, named apart from them (`.cjs`); `import()` becomes a lazy `require`.
            : { format: 'cjs', entryFileNames: `${chunk.name}.cjs`, chunkFileNames: 'chunks/[name]-[hash].cjs', dynamicImportInCjs: false },
        });
        for (const file of written) if (file.type === 'chunk') await writeFile(join(outDir, file.fileName), file.code);
        // Its chunks stay: the desk's other entries share them.
        if (format === 'cjs-behind-esm') await writeFile(input, esmShimFor(`${chunk.name}.cjs`));
        if (format !== 'cjs') continue;
        // Its ES-module files go: its code is all in the `.cjs` files now, and the app would ship them unused.
        for (const fileName of [chunk.fileName, ...chunksOnlyOf(chunk, bundle)]) await rm(join(outDir, fileName));
      }
    },
  };
}

/** The chunks `entry` imports, at once or lazily, that no other entry of the build reaches. */
export function chunksOnlyOf(entry: Pick<OutputChunk, 'fileName'>, bundle: OutputBundle): string[] {
  const chunks = new Map(Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item] as const] : [])));
  const reached = (from: string): Set<string> => {
    const seen = new Set<string>();
    const visit = (fileName: string): void => {
      const chunk = chunks.get(fileName);
      if (!chunk || seen.has(fileName)) return;
      seen.add(fileName);
      for (const next of [...chunk.imports, ...chunk.dynamicImports]) visit(next);
    };
    visit(from);
    return seen;
  };
  const others = new Set([...chunks.values()].filter((chunk) => chunk.isEntry && chunk.fileName !== entry.fileName).flatMap((chunk) => [...reached(chunk.fileName)]));
  return [...reached(entry.fileName)].filter((fileName) => fileName !== entry.fileName && !others.has(fileName));
}
