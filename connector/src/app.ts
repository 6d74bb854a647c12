import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_UPSERT_BODY_BYTES } from '../../src/sync/protocol/wire';
import type { ConnectorEnv } from './env';
import { ConnectorError, renderError } from './http/connector-error';
import { requireSignature } from './http/signature';
import { inventoryRoutes } from './routes/inventory.routes';
import { mappingsRoutes } from './routes/mappings.routes';
import { statusRoutes } from './routes/status.routes';
import { upsertRoutes } from './routes/upsert.routes';
import { targetRoutes } from './routes/target.routes';
import { D1ShopStore } from './store/d1-store';
import { remoteTargetOf } from './targets/request-target';
import type { RemoteTarget } from './targets/remote-target';

/**
 * The connector's HTTP surface. Every route, including unknown paths, sits behind the
 * signature check; the body limit runs first so an oversized body is refused before hashing.
 */
export const app = new Hono<ConnectorEnv>();

app.onError(renderError);
app.notFound(() => {
  throw new ConnectorError('not_found', 'not found');
});
app.use(
  '*',
  bodyLimit({
    maxSize: MAX_UPSERT_BODY_BYTES,
    onError: () => {
      throw new ConnectorError('payload_too_large', `request body larger than ${MAX_UPSERT_BODY_BYTES} bytes`);
    },
  }),
);
app.use('*', requireSignature);
app.use('*', async (c, next) => {
  c.set('store', new D1ShopStore(c.env.DB));
  let remote: Promise<RemoteTarget | null> | null = null;
  c.set('remote', () => {
    remote ??= remoteTargetOf(c.env, c.get('keyId'));
    return remote;
  });
  await next();
});

app.route('/', mappingsRoutes);
app.route('/', inventoryRoutes);
app.route('/', upsertRoutes);
app.route('/', statusRoutes);
app.route('/', targetRoutes);
