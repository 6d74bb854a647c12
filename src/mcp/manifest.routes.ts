import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { buildManifest, MANIFEST_PATH } from './manifest';

/** Public routes of the MCP surface: the manifest, readable before any authorization. */
export const mcpManifestRoutes = new Hono<AppEnv>().get(MANIFEST_PATH, (c) => {
  c.header('Access-Control-Allow-Origin', '*');
  c.header('Cache-Control', 'public, max-age=300');
  return c.json(buildManifest(new URL(c.req.url).origin));
});
