import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { authorizeRoutes } from './authorize.routes';
import { mcpRoutes } from './mcp.routes';
import { oauthProtocolRoutes } from './metadata.routes';

/**
 * Everything OAuth at the Worker root: discovery documents, `/connect/*` (the library's token,
 * revocation and registration endpoints, our sign-in and consent pages) and the protected
 * `/mcp`. `/api/ai/*` is mounted with the other REST controllers.
 */
export const oauthRoutes = new Hono<AppEnv>()
  .route('/', oauthProtocolRoutes)
  .route('/', authorizeRoutes)
  .route('/mcp', mcpRoutes);
