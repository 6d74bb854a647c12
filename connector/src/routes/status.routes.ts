import { Hono } from 'hono';
import type { ConnectorEnv } from '../env';

/** GET /status: managed products, image states and the last committed batch (of the key's target, when it has one). */
export const statusRoutes = new Hono<ConnectorEnv>().get('/status', async (c) => {
  const source = (await c.get('remote')())?.mirror ?? c.get('store');
  return c.json(await source.status(), 200, { 'Cache-Control': 'no-store' });
});
