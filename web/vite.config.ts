import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The web application (docs/web.md). `vite build` writes dist/web, which wrangler.toml serves as
 * Workers static assets; `vite` (dev) proxies the Worker's routes to a running `wrangler dev`.
 */
export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    port: Number(process.env.WEB_PORT ?? 5173),
    strictPort: true,
    proxy: Object.fromEntries(
      ['/api', '/connect', '/mcp', '/.well-known'].map((path) => [
        path,
        { target: process.env.WORKER_URL ?? 'http://127.0.0.1:8787', changeOrigin: false },
      ]),
    ),
  },
});
