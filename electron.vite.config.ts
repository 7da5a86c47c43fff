import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

const root = import.meta.dirname;
const alias = { '@shared': resolve(root, 'shared') };

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: 'out/main',
      rollupOptions: {
        // main.ts is the Electron app; cli.ts is the headless server for scripts (plain Node);
        // import-worker.ts is the thread a background import runs on, icalendar/read-worker.ts the one
        // that reads a large iCalendar file while it is imported, icalendar/export-worker.ts the one that
        // writes a large export's text (worker-script.ts finds them here).
        input: {
          main: resolve(root, 'electron/main.ts'),
          cli: resolve(root, 'electron/cli.ts'),
          'import-worker': resolve(root, 'electron/server/import-export/import-worker.ts'),
          'ics-read-worker': resolve(root, 'electron/server/icalendar/read-worker.ts'),
          'ics-export-worker': resolve(root, 'electron/server/icalendar/export-worker.ts'),
        },
        // Shared chunks sit beside the entries: the server finds out/renderer relative to its own file.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { preload: resolve(root, 'electron/preload.ts') },
        // A sandboxed preload cannot load ES modules.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    resolve: { alias },
    plugins: [react()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      rollupOptions: { input: resolve(root, 'renderer/index.html') },
    },
  },
});
