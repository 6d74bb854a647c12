/**
 * Seeds the demo shop into the connector's local D1 (connector/.wrangler/state, the state
 * `npm run connector:dev` serves). Idempotent: run it as often as you like.
 *
 *   npm run connector:seed
 *   npm run connector:seed -- --persist-to DIR   # another state dir, as with wrangler's flag
 */
import { getPlatformProxy } from 'wrangler';
import type { ConnectorBindings } from '../src/env';
import { demoShopMappings, SHOP_OWN_PRODUCTS, seedDemoShop } from './demo-shop';

const persistIndex = process.argv.indexOf('--persist-to');
const persistTo = persistIndex >= 0 ? process.argv[persistIndex + 1] : 'connector/.wrangler/state';
const proxy = await getPlatformProxy<ConnectorBindings>({
  configPath: 'connector/wrangler.toml',
  persist: { path: `${persistTo}/v3` },
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
