import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startVendure } from '../../shops/vendure/start';
import { connectorFetch } from '../../src/sync/connector-client';
import { DEMO_CONNECTOR } from './demo-connection';
import { SHOP_LANGUAGES } from './shop-languages';
import { seedVendureDemo } from './shop-seed-vendure';

/**
 * The real shop of `npm run dev -- --shop vendure` (scripts/dev.ts, docs/shops.md "Vendure"):
 * the local Vendure on port 3100 with its data in shops/vendure/.data, the demo manufacturers
 * and tax codes seeded, and the seeded "Demo-Shop" connection's `shop` set to it through the
 * PIM's UpdateConnection, signed in as the demo admin: the PIM sends PUT /target before each
 * run, so a sync of that connection writes into Vendure. Without `--shop`, `resetDemoShop`
 * sets the connection's `shop` back to null (the PIM then sends DELETE /target).
 */
export interface DevShop {
  /** What to print: where the shop's Admin API is and how to sign in. */
  notes: string[];
  stop(): Promise<void>;
}

const ROOT = join(import.meta.dirname, '..', '..');
const VENDURE_PORT = 3100;
const PIM_URL = 'http://127.0.0.1:8787';
const DEMO_ADMIN = { email: 'admin@demo.test', password: 'demo-password-1' };

// biome-ignore lint/suspicious/noExplicitAny: the PIM's JSON answers are read field by field
type Json = any;

/** Waits until `url` answers at all (any status: it is up), at most two minutes. */
async function serverUp(url: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    const up = await fetch(url).then(
      () => true,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within two minutes`);
}

/** The PIM's REST API as the demo admin, and the Demo-Shop connection as it reads. */
async function demoConnection(): Promise<{ api: (path: string, body?: unknown) => Promise<Json>; connection: Json }> {
  await serverUp(`${PIM_URL}/api/Account/Login`);
  const login = await fetch(`${PIM_URL}/api/Account/Login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(DEMO_ADMIN),
  });
  const cookie = login.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error(`signing in to the PIM as ${DEMO_ADMIN.email} failed: ${login.status}`);
  const api = async (path: string, body?: unknown) => {
    const res = await fetch(`${PIM_URL}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Cookie: cookie, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Json;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const connection = (await api('/api/Sync/GetConnections')).items.find((c: Json) => c.name === DEMO_CONNECTOR.name);
  if (!connection) throw new Error(`the demo seed has no ${DEMO_CONNECTOR.name} connection`);
  return { api, connection };
}

/** UpdateConnection of the Demo-Shop connection with only its shop changed. */
function setShop(api: (path: string, body?: unknown) => Promise<Json>, connection: Json, shop: unknown) {
  const { connectionId, departmentId, catalogId, name, connectorUrl, keyId, options } = connection;
  return api('/api/Sync/UpdateConnection', {
    connectionId,
    departmentId,
    catalogId,
    name,
    connectorUrl,
    keyId,
    options,
    shop,
  });
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
    const { api, connection } = await demoConnection();
    await setShop(api, connection, {
      kind: 'vendure',
      url: shop.adminApiUrl,
      credentials: { username: shop.username, password: shop.password },
      mapping: { languages: SHOP_LANGUAGES.vendure },
    });
    await serverUp(`${DEMO_CONNECTOR.connectorUrl}/status`);
    const test = await api('/api/Sync/TestConnection', {
      departmentId: connection.departmentId,
      connectionId: connection.connectionId,
    });
    if (!test.ok) throw new Error(`TestConnection of ${DEMO_CONNECTOR.name}: ${test.error ?? `HTTP ${test.status}`}`);
    return {
      notes: [
        `Vendure Admin API: ${shop.adminApiUrl} (user ${shop.username}, password ${shop.password}; data in shops/vendure/.data)`,
        `seeded ${seeded.manufacturers} manufacturers and ${seeded.taxes} tax codes; the ${DEMO_CONNECTOR.name} connection now syncs into Vendure`,
      ],
      stop: () => shop.stop(),
    };
  } catch (err) {
    await shop.stop();
    throw err;
  }
}

/**
 * Points the demo connection back at the connector's reference store: its `shop` set to null
 * (the PIM sends DELETE /target). A connection already without a shop gets a signed DELETE
 * /target of its own, for a target left by a start before connections carried their shop.
 */
export async function resetDemoShop(): Promise<void> {
  const { api, connection } = await demoConnection();
  if (connection.shop) {
    const reset = await setShop(api, connection, null);
    console.log(
      reset.targetResetPending
        ? `[pim] ${DEMO_CONNECTOR.name} has no shop now; the connector is reset before its next run`
        : `[pim] ${DEMO_CONNECTOR.name} writes into the connector's reference store again`,
    );
    return;
  }
  await serverUp(`${DEMO_CONNECTOR.connectorUrl}/status`);
  const answer = await connectorFetch((r) => fetch(r), DEMO_CONNECTOR, 'DELETE', '/target');
  if (answer.status === 204) console.log('[connector] the demo key writes into the reference store again');
  else if (answer.status !== 404) throw new Error(`DELETE /target: HTTP ${answer.status}`);
}
