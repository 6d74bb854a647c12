import { Hono } from 'hono';
import type { ConnectorEnv } from '../env';

/** GET /status: managed products, image states and the last committed batch. */
export const statusRoutes = new Hono<ConnectorEnv>().get('/status', async (c) => {
  return c.json(await c.get('store').status(), 200, { 'Cache-Control': 'no-store' });
});
