/**
 * What the real-shop e2e tests (shop-vendure, shop-medusa) share: the PIM of the global setup
 * read and driven through its REST API as a user would (demo login, connections, StartSync,
 * the catalog's products with every language, media bytes), and the one place that points a
 * connection at the shop (`pointConnectionAtShop`).
 */
import { createHash } from 'node:crypto';
import type { TargetKind } from '../../src/sync/protocol/target';
import { DEMO_KEY } from './sync-harness';

export const SALES = '0190a000-0000-7000-8000-000000000011';

// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON answers field by field
type Json = any;

export interface Pim {
  api(path: string, body?: unknown): Promise<Json>;
  /** Bytes of a stored media file (Media/Get). */
  mediaBytes(mediaId: string): Promise<Buffer>;
}

export async function signInToPim(baseUrl: string): Promise<Pim> {
  const login = await fetch(`${baseUrl}/api/Account/Login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.test', password: 'demo-password-1' }),
  });
  const cookie = login.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error(`demo login failed: ${login.status}`);
  return {
    async api(path, body) {
      const res = await fetch(`${baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { Cookie: cookie, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as Json;
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    },
    async mediaBytes(mediaId) {
      const res = await fetch(`${baseUrl}/api/Media/Get?mediaId=${mediaId}`, { headers: { Cookie: cookie } });
      if (res.status !== 200) throw new Error(`Media/Get ${mediaId}: ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    },
  };
}

/** Runs a sync through the PIM (Sync/StartSync) and waits for its job to end. */
export async function syncOnce(pim: Pim, connectionId: string): Promise<Json> {
  const { jobId } = await pim.api('/api/Sync/StartSync', { departmentId: SALES, connectionId });
  for (let i = 0; i < 2400; i++) {
    const job = await pim.api(`/api/Job/GetJob?jobId=${jobId}`);
    if (job.state !== 'queued' && job.state !== 'running') return job;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('sync did not finish');
}

/** A connection's `shop` as UpdateConnection takes it (docs/shops.md, "The PIM side"). */
export interface ShopTarget {
  kind: TargetKind;
  url: string;
  credentials: Record<string, string>;
  /** Any part of TargetMapping; the rest comes from the kind's defaults. */
  mapping?: Record<string, unknown>;
}

/**
 * A PIM connection for the demo catalog ("Elektroinstallation 2026", the Demo-Shop
 * connection's) to the connector, signed with the demo key, whose `shop` is set through
 * UpdateConnection as an admin would: the PIM sends PUT /target itself before each run.
 * TestConnection checks it at once (PUT /target, the shop's probe, GET /mappings), so a shop
 * the connector cannot reach fails here with its reason rather than in the first sync.
 */
export async function pointConnectionAtShop(
  pim: Pim,
  connectorUrl: string,
  name: string,
  shop: ShopTarget,
): Promise<{ connectionId: string; catalogId: string }> {
  const demo = (await pim.api('/api/Sync/GetConnections')).items.find((c: Json) => c.name === 'Demo-Shop');
  if (!demo) throw new Error('the demo seed has no Demo-Shop connection');
  const fields = {
    departmentId: SALES,
    catalogId: demo.catalogId,
    name,
    connectorUrl,
    keyId: DEMO_KEY.keyId,
    options: { missing: 'deactivate', maxDeactivationPercent: 50, schedule: null, defaultTaxCode: 'DE-19' },
  };
  const added = await pim.api('/api/Sync/AddConnection', { ...fields, secret: DEMO_KEY.secret });
  const connection = await pim.api('/api/Sync/UpdateConnection', { ...fields, connectionId: added.connectionId, shop });
  if (connection.shop?.kind !== shop.kind)
    throw new Error(`UpdateConnection kept no shop: ${JSON.stringify(connection)}`);
  const test = await pim.api('/api/Sync/TestConnection', { departmentId: SALES, connectionId: added.connectionId });
  if (!test.ok) throw new Error(`TestConnection: ${JSON.stringify(test)}`);
  return { connectionId: added.connectionId, catalogId: demo.catalogId };
}

/**
 * Gives the demo catalog English and French: the company enables them, the catalog publishes
 * them (a sync record carries published languages only), and one master gets texts in both,
 * so every mapped language has something of its own to check. Answers the undo: the e2e PIM
 * is shared by every e2e file, which expect the demo seed as it was.
 */
export async function publishTranslations(
  pim: Pim,
  catalogId: string,
  productId: string,
): Promise<() => Promise<void>> {
  const languages = await pim.api('/api/Catalog/GetLanguages');
  const enabled: string[] = languages.languages.map((l: Json) => (typeof l === 'string' ? l : l.code));
  const wanted = [...new Set([...enabled, 'deu', 'eng', 'fra'])];
  if (wanted.length !== enabled.length)
    await pim.api('/api/Catalog/SetLanguages', { languages: wanted, defaultLanguage: languages.defaultLanguage });
  const catalog = await pim.api(`/api/Catalog/GetCatalog?catalogId=${catalogId}`);
  const published = [...new Set([...catalog.languages, 'deu', 'eng', 'fra'])];
  const publish = (list: string[]) =>
    pim.api('/api/Catalog/UpdateCatalog', {
      departmentId: catalog.departmentId,
      catalogId,
      name: catalog.name,
      languages: list,
    });
  if (published.length !== catalog.languages.length) await publish(published);
  await pim.api('/api/Catalog/UpdateProduct', {
    departmentId: SALES,
    catalogId,
    productId,
    translations: {
      eng: { name: 'Miniature circuit breaker (E2E)' },
      fra: { name: 'Disjoncteur miniature (E2E)' },
    },
  });
  return async () => {
    await pim.api('/api/Catalog/UpdateProduct', {
      departmentId: SALES,
      catalogId,
      productId,
      translations: { eng: { name: null }, fra: { name: null } },
    });
    if (published.length !== catalog.languages.length) await publish(catalog.languages);
    if (wanted.length !== enabled.length)
      await pim.api('/api/Catalog/SetLanguages', { languages: enabled, defaultLanguage: languages.defaultLanguage });
  };
}

/** A PIM master as the shop should show it: with its variants, every language, prices, features, categories, images. */
export interface PimMaster {
  productId: string;
  sku: string;
  detail: Json;
  /** sha256 of each image file (kind `file`), in the master's order. */
  imageHashes: string[];
}

/** Every master of the catalog with a SKU, read through GetProducts and GetProduct (languages=all). */
export async function pimMasters(pim: Pim, catalogId: string): Promise<PimMaster[]> {
  const masters: PimMaster[] = [];
  let cursor: string | null = null;
  do {
    const page: Json = await pim.api(
      `/api/Catalog/GetProducts?catalogId=${catalogId}&limit=500${cursor ? `&cursor=${cursor}` : ''}`,
    );
    for (const item of page.items) {
      if (!item.sku) continue;
      const detail = await pim.api(`/api/Catalog/GetProduct?productId=${item.productId}&languages=all`);
      const imageHashes: string[] = [];
      for (const m of detail.media.filter((x: Json) => x.kind === 'file')) {
        imageHashes.push(
          createHash('sha256')
            .update(await pim.mediaBytes(m.mediaId))
            .digest('hex'),
        );
      }
      masters.push({ productId: item.productId, sku: item.sku, detail, imageHashes });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return masters.sort((a, b) => (a.sku < b.sku ? -1 : 1));
}

/** A node's text in a PIM language: its translation there, else (as the adapters fall back) the default text. */
export function textOf(node: Json, field: 'name' | 'description', language: string, defaultLanguage: string): string {
  if (language === defaultLanguage) return node[field] ?? '';
  return node.translations?.[language]?.[field] ?? node[field] ?? '';
}

/** Category id -> name, over the catalog's whole tree. */
export async function categoryNames(pim: Pim, catalogId: string): Promise<Map<string, string>> {
  const tree = await pim.api(`/api/Catalog/GetCategoryTree?catalogId=${catalogId}`);
  const names = new Map<string, string>();
  const walk = (nodes: Json[]) => {
    for (const n of nodes) {
      names.set(n.categoryId, n.name);
      walk(n.children ?? []);
    }
  };
  walk(tree.items);
  return names;
}
