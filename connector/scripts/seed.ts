/**
 * Seeds the demo shop into the connector's local D1 (connector/.wrangler/state, the state
 * `npm run connector:dev` serves). Idempotent: run it as often as you like.
 *
 *   npm run connector:seed
 */
import { getPlatformProxy } from 'wrangler';
import type { ConnectorBindings } from '../src/env';
import { demoShopMappings, SHOP_OWN_PRODUCTS, seedDemoShop } from './demo-shop';

const proxy = await getPlatformProxy<ConnectorBindings>({
  configPath: 'connector/wrangler.toml',
  persist: { path: 'connector/.wrangler/state/v3' },
  remoteBindings: false,
});
try {
  await seedDemoShop(proxy.env.DB);
  const { manufacturers, units, taxes } = demoShopMappings();
  console.log(
    `demo shop: ${manufacturers.length} manufacturers, ${units.length} units, ${taxes.length} taxes, ${SHOP_OWN_PRODUCTS.length} shop-owned products`,
  );
} finally {
  await proxy.dispose();
}
