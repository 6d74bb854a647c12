import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { MediaRef, Product, UpsertRecord, Variant } from '../../src/sync/protocol/wire';
import { wireNode, wirePrice } from './fixtures/wire-product';

/**
 * Hand-written wire records for the Vendure adapter's tests, real PNG bytes for their images,
 * and a reader of Vendure's own Admin API to check what the adapter wrote.
 */

/** A valid 2x2 PNG of one colour: distinct colours give distinct bytes and hashes. */
export function png(r: number, g: number, b: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.from([0, r, g, b, r, g, b]);
  const pixels = deflateSync(Buffer.concat([row, row]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Image bytes by hash, answered to the adapter as `mediaBytes`. */
export const imageStore = new Map<string, { bytes: Uint8Array; type: string }>();

export function image(bytes: Uint8Array, fileName: string, position: number, type = 'image/png'): MediaRef {
  const hash = sha256(bytes);
  imageStore.set(hash, { bytes, type });
  return {
    sha256: hash,
    url: `https://media.example/${fileName}`,
    contentType: type,
    fileName,
    purpose: 'normal',
    position,
  };
}

const empty = wireNode();
const price = (amount: string, lowerBound: string) => wirePrice(amount, lowerBound);

const feature = (code: string, name: string, value: string, unit: string | null) => ({
  group: 'EC000001',
  code,
  name,
  value,
  unit,
});

function variant(sku: string, n: number, taxId: string): Variant {
  return {
    ...empty,
    sku,
    name: `Leitung ${n}x1,5`,
    description: `Variante ${n}`,
    taxId,
    prices: [price(`${10 + n}.50`, '1'), price(`${9 + n}.00`, '10')],
    classification: {
      classes: [{ group: 'EC000001', system: 'ETIM-9.0', code: 'EC000001' }],
      features: [feature('EF000008', 'Cores', String(n), null), feature('EF000001', 'Colour', 'grey', null)],
    },
    translations: { eng: { name: `Cable ${n}x1.5` }, fra: { name: `Câble ${n}x1,5` } },
  };
}

/** A master with three variants, three languages, prices, ETIM features, two categories and two images. */
export function cableMaster(sku: string, taxId: string): Product {
  return {
    ...empty,
    name: 'Mantelleitung NYM-J',
    description: 'Installationsleitung für feste Verlegung',
    taxId,
    status: 'active',
    values: { brand_line: 'ProLine' },
    classification: {
      classes: [{ group: 'EC000001', system: 'ETIM-9.0', code: 'EC000001' }],
      features: [feature('EF005474', 'Protection class', 'IP44', null)],
    },
    media: [image(png(200, 10, 10), `${sku}-front.png`, 0), image(png(10, 200, 10), `${sku}-side.png`, 1)],
    categories: [
      { id: 'c1', path: ['Kabel', 'Installationskabel'] },
      { id: 'c2', path: ['Angebote'] },
    ],
    translations: {
      eng: { name: 'Sheathed cable NYM-J', description: 'Installation cable for fixed wiring' },
      fra: { name: 'Câble gainé NYM-J', description: 'Câble d’installation pour pose fixe' },
    },
    variants: [1, 2, 3].map((n) => variant(`${sku}-${n}`, n + 2, taxId)),
  };
}

export function upsert(sku: string, product: Product, op: 'create' | 'update' = 'create'): UpsertRecord {
  return { op, sku, fingerprint: `fp-${sku}-${JSON.stringify(product).length}`, product };
}

/** Vendure's Admin API as a person with the superadmin login would read it. */
export async function adminReader(url: string, username: string, password: string) {
  const login = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { ... on CurrentUser { id } } }',
      variables: { u: username, p: password },
    }),
  });
  const token = login.headers.get('vendure-auth-token');
  if (!token) throw new Error('the test could not sign in to Vendure');
  // biome-ignore lint/suspicious/noExplicitAny: the tests read GraphQL answers field by field
  return async (query: string, variables: Record<string, unknown> = {}): Promise<any> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: unknown; errors?: { message: string }[] };
    if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join('; '));
    return body.data;
  };
}

export const PRODUCT_READ = `query($id: ID!) { product(id: $id) {
  id enabled customFields { pimSku }
  translations { languageCode name slug description }
  facetValues { id code name facet { code } }
  assets { id tags { value } } featuredAsset { id }
  optionGroups { id code name options { id code name } }
  variants { id sku price currencyCode enabled taxCategory { id }
    translations { languageCode name } options { code group { code } } facetValues { code facet { code } } }
} }`;

export const COUNTS = `{
  products(options: { take: 1 }) { totalItems }
  productVariants(options: { take: 1 }) { totalItems }
  facets(options: { take: 1 }) { totalItems }
  facetValues(options: { take: 1 }) { totalItems }
  assets(options: { take: 1 }) { totalItems }
  collections(options: { take: 1 }) { totalItems }
}`;
