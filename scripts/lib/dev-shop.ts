import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startVendure } from '../../shops/vendure/start';
import { DEMO_CONNECTOR } from './demo-connection';
import { seedVendureDemo } from './shop-seed-vendure';
import { SHOP_LANGUAGES, setShopTarget, signedConnectorCall } from './shop-target';

/**
 * The real shop of `npm run dev -- --shop vendure` (scripts/dev.ts, docs/shops.md "Vendure"):
 * the local Vendure on port 3100 with its data in shops/vendure/.data, the demo manufacturers
 * and tax codes seeded, and the demo connector key (the seeded "Demo-Shop" connection's)
 * pointed at it, so a sync run from the PIM writes into Vendure.
 *
 * The key's target is set here with a signed PUT /target. Once the PIM's connections carry
 * `shop` (and the PIM sends PUT /target before each run), this sets the Demo-Shop
 * connection's `shop` through the PIM's UpdateConnection instead.
 */
export interface DevShop {
  /** What to print: where the shop's Admin API is and how to sign in. */
  notes: string[];
  stop(): Promise<void>;
}

const ROOT = join(import.meta.dirname, '..', '..');
const VENDURE_PORT = 3100;
const DEMO_KEY = { keyId: DEMO_CONNECTOR.keyId, secret: DEMO_CONNECTOR.secret };

/** Waits until the connector answers at all (any status: it is up), at most two minutes. */
async function connectorUp(url: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    const up = await fetch(`${url}/status`).then(
      () => true,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the connector at ${url} did not answer within two minutes`);
}

export async function startDevShop(): Promise<DevShop> {
  const installed = spawnSync('npx', ['tsx', join(ROOT, 'scripts/shops-install.ts'), 'vendure'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (installed.status !== 0) throw new Error('installing the local Vendure shop failed (npm run shops:install)');
  const shop = await startVendure({ port: VENDURE_PORT, dataDir: join(ROOT, 'shops/vendure/.data') });
  try {
    const seeded = await seedVendureDemo(shop);
    await connectorUp(DEMO_CONNECTOR.connectorUrl);
    await setShopTarget(DEMO_CONNECTOR.connectorUrl, DEMO_KEY, {
      kind: 'vendure',
      url: shop.adminApiUrl,
      credentials: { username: shop.username, password: shop.password },
      mapping: { languages: SHOP_LANGUAGES.vendure },
    });
    return {
      notes: [
        `Vendure Admin API: ${shop.adminApiUrl} (user ${shop.username}, password ${shop.password}; data in shops/vendure/.data)`,
        `seeded ${seeded.manufacturers} manufacturers and ${seeded.taxes} tax codes; the Demo-Shop connection now syncs into Vendure`,
      ],
      stop: () => shop.stop(),
    };
  } catch (err) {
    await shop.stop();
    throw err;
  }
}

/** Points the demo key back at the connector's reference store (a target left from an earlier `--shop` start). */
export async function resetDemoTarget(): Promise<void> {
  await connectorUp(DEMO_CONNECTOR.connectorUrl);
  const answer = await signedConnectorCall(DEMO_CONNECTOR.connectorUrl, DEMO_KEY, 'DELETE', '/target');
  if (answer.status === 204) console.log('[connector] the demo key writes into the reference store again');
  else if (answer.status !== 404) throw new Error(`DELETE /target: ${answer.status} ${answer.text}`);
}
