// Build of the three runtimes: Electron main (plus the headless host, the scripted agent and the sandbox
// network bridge, which run in plain Node), the sandboxed preload, and the React renderer.
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { hostBundlePlugin } from './build/host-bundle-plugin';
import { standaloneEntriesPlugin } from './build/standalone-entries-plugin';

export default defineConfig({
  main: {
    // The headless host once more as one script, which Node can keep compiled between starts (see the plugin).
    // And the programs a task starts, each as one file (see the plugin).
    plugins: [
      hostBundlePlugin(resolve('src/main/serve-host.ts')),
      standaloneEntriesPlugin({ serve: 'cjs-behind-esm', 'sandbox-net-bridge': 'esm', 'sandbox-net-preload': 'cjs', 'dev-server-forwarder': 'esm', 'scripted-agent': 'cjs' }),
    ],
    build: {
      // zod (every schema in src/shared), simple-git (the start-up checks), Hono and picomatch are read at start:
      // bundled, each loads as part of one file instead of dozens (Node's loader pays per file: about 100 ms of the
      // headless host's cold start together).
      // The SDKs are bundled for one zod, not two; each still loads with its first use (dynamic import).
      // Native modules and what loads later stay in node_modules.
      externalizeDeps: { exclude: ['zod', 'simple-git', '@agentclientprotocol/sdk', '@modelcontextprotocol/sdk', 'hono', 'picomatch'] },
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          serve: resolve('src/main/serve.ts'),
          // The host's modules, which build/host-bundle-plugin.ts makes into the one-file bundle serve.js runs.
          'serve-host': resolve('src/main/serve-host.ts'),
          'scripted-agent': resolve('src/scripted-agent/scripted-agent-main.ts'),
          // Runs inside an agent's sandbox as a wrapper, bridging its loopback to the desk's egress proxy.
          'sandbox-net-bridge': resolve('src/main/core/sandbox/network/sandbox-net-bridge.ts'),
          // The same bridge loaded into a Node agent's own process (`--require`), instead of the wrapper.
          'sandbox-net-preload': resolve('src/main/core/sandbox/network/sandbox-net-preload.ts'),
          // Runs inside a task's sandbox around its dev server, carrying the desk's host port to the server's.
          'dev-server-forwarder': resolve('src/main/core/dev-server/dev-server-forwarder.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        // A sandboxed preload cannot be an ES module.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    // Served under /ui/ by the headless host and loaded from file:// in Electron: relative URLs work in both.
    base: './',
    plugins: [react()],
  },
});
