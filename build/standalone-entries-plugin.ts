// Makes the small programs a task starts (the sandbox's bridge and its preload, the dev server's forwarder) one file
// each once electron-vite has written them: Node's ES-module loader pays per file, and these load once per task, in the
// agent's own start. Measured with the bridge's preload: 70.5 ms of CPU for a Node loading it as three files against
// 64.6 as one (a Node loading nothing: 62.4). Made from the files just written, so it is the same code; the shared
// chunks stay for the desk's own entries. Not for a program with lazy imports (the scripted agent's MCP client): one
// file would hold them all, and Node would read and scan them at every start.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'rolldown';
import type { Plugin } from 'vite';

/** `entries`: the names of the build's inputs to make standalone. */
export function standaloneEntriesPlugin(entries: readonly string[]): Plugin {
  return {
    name: 'assignment-desk:standalone-entries',
    apply: 'build',
    async writeBundle(output, bundle) {
      const outDir = output.dir ?? '';
      const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' && item.isEntry && entries.includes(item.name) ? [item] : []));
      for (const chunk of chunks) {
        if (chunk.dynamicImports.length > 0) throw new Error(`${chunk.fileName} imports modules lazily: making it one file would load them at every start.`);
        const { output: [written] } = await build({
          input: join(outDir, chunk.fileName),
          platform: 'node',
          // What the build left to node_modules and Node's own modules stay outside.
          external: (id) => !id.startsWith('.') && !id.startsWith('/'),
          logLevel: 'warn',
          write: false,
          output: { format: 'esm', codeSplitting: false },
        });
        await writeFile(join(outDir, chunk.fileName), written.code);
      }
    },
  };
}
