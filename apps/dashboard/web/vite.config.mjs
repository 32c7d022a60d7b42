// Builds the dashboard's single-page app to dist/apps/dashboard/web (served by the dashboard app itself).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root,
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: resolve(root, '../../../dist/apps/dashboard/web'),
    emptyOutDir: true,
    // No inline script or data: module preload polyfill: the CSP allows only 'self'.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
