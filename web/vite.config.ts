import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Modules every screen shares (small): one chunk loaded with the entry instead of a request each per screen. */
const COMMON = /\/web\/src\/(api|components|lib|i18n|session)\//;

/**
 * `<link rel="modulepreload">` in index.html for the product grid's chunk and its imports: the
 * browser fetches and compiles them alongside the entry (not evaluated until the grid shows),
 * instead of after the entry has run. The grid is the screen product managers open most.
 */
function preloadGrid(): Plugin {
  return {
    name: 'pim-preload-grid',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk');
        const grid = chunks.find((c) => c.facadeModuleId?.endsWith('/web/src/pages/Products.tsx'));
        if (!grid) return [];
        const entry = chunks.find((c) => c.isEntry);
        const loaded = new Set([entry?.fileName, ...(entry?.imports ?? [])]);
        return [grid.fileName, ...grid.imports]
          .filter((file) => !loaded.has(file))
          .map(
            (file): HtmlTagDescriptor => ({
              tag: 'link',
              attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
              injectTo: 'head',
            }),
          );
      },
    },
  };
}

/**
 * The web application (docs/web.md). `vite build` writes dist/web, which wrangler.toml serves as
 * Workers static assets; `vite` (dev) proxies the Worker's routes to a running `wrangler dev`.
 */
export default defineConfig({
  root,
  plugins: [react(), preloadGrid()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rollupOptions: {
      output: { manualChunks: (id) => (COMMON.test(id) ? 'common' : undefined) },
    },
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
