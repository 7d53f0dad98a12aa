import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The web console: Preact components in TSX, compiled by Vite's own esbuild (no framework plugin), built
 * to console/dist/, which the API process serves at `/`. `vite --config console/vite.config.ts` runs a dev
 * server that forwards /api to a local API.
 */
export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  resolve: {
    // The typed client and the plan table are written for Node's ESM resolution (`./x.js` for `./x.ts`).
    extensions: ['.ts', '.tsx', '.js'],
    // The client imports `@ota/shared/...` by package name; bundle its sources, not a separate build.
    conditions: ['ota-source', ...defaultClientConditions],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 300,
  },
  server: {
    proxy: { '/api': process.env.OTA_API_URL ?? 'http://127.0.0.1:8080' },
  },
});
