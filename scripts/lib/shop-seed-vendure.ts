import { demoShopMappings, slug } from '../../connector/scripts/demo-shop';

/**
 * What a Vendure shop must hold before the PIM's demo catalog syncs into it (docs/shops.md,
 * "Vendure"): the PIM quarantines a product whose manufacturer, unit or tax code has no
 * mapping in the shop's GET /mappings. The Vendure adapter offers manufacturers from the
 * values of the facet `manufacturer`, units from a fixed list of UN/ECE codes (nothing to
 * seed), and taxes from the tax categories by name. So this seeds, idempotently through
 * Vendure's Admin API, the facet `manufacturer` with one value per demo manufacturer (as
 * connector/scripts/demo-shop.ts seeds the reference shop) and the tax categories `DE-19` and
 * `DE-7` with their rates in the zone Europe (shops/vendure/server.mjs makes it), the codes
 * the demo connection's `defaultTaxCode` names.
 */
export interface VendureAdmin {
  adminApiUrl: string;
  username: string;
  password: string;
}

const LOCALES = ['en', 'de', 'fr'] as const;
const TAXES = [
  { name: 'DE-19', rate: 19 },
  { name: 'DE-7', rate: 7 },
];

type Gql = <T>(query: string, variables?: Record<string, unknown>) => Promise<T>;

/** Signs in as the administrator and answers a GraphQL caller that throws on any error. */
export async function vendureAdmin(shop: VendureAdmin): Promise<Gql> {
  const call = async (token: string | null, query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(shop.adminApiUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: unknown; errors?: { message: string }[] };
    if (!response.ok || body.errors?.length)
      throw new Error(`Vendure: ${body.errors?.map((e) => e.message).join('; ') ?? response.status}`);
    return { data: body.data, token: response.headers.get('vendure-auth-token') };
  };
  const login = await call(
    null,
    'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { ... on CurrentUser { id } ... on ErrorResult { message } } }',
    { u: shop.username, p: shop.password },
  );
  const token = login.token;
  if (!token) throw new Error(`Vendure refused the sign-in: ${JSON.stringify(login.data)}`);
  return async <T>(query: string, variables?: Record<string, unknown>) =>
    (await call(token, query, variables)).data as T;
}

/** The demo catalogs' manufacturers (and the demo shop's house brand). */
export function demoManufacturers(): string[] {
  return demoShopMappings().manufacturers.map((m) => m.name);
}

/** Seeds the demo manufacturers and tax codes; a second run adds nothing. Answers what it added. */
export async function seedVendureDemo(shop: VendureAdmin): Promise<{ manufacturers: number; taxes: number }> {
  const gql = await vendureAdmin(shop);
  const names = (name: string) => LOCALES.map((languageCode) => ({ languageCode, name }));

  const found = await gql<{ facets: { items: { id: string; values: { code: string }[] }[] } }>(
    `{ facets(options: { filter: { code: { eq: "manufacturer" } }, take: 1 }) { items { id values { code } } } }`,
  );
  const facetId =
    found.facets.items[0]?.id ??
    (
      await gql<{ createFacet: { id: string } }>(
        'mutation($input: CreateFacetInput!) { createFacet(input: $input) { id } }',
        { input: { code: 'manufacturer', isPrivate: false, translations: names('Hersteller') } },
      )
    ).createFacet.id;
  const have = new Set(found.facets.items[0]?.values.map((v) => v.code) ?? []);
  const missing = demoManufacturers().filter((name) => !have.has(slug(name)));
  if (missing.length > 0) {
    await gql('mutation($input: [CreateFacetValueInput!]!) { createFacetValues(input: $input) { id } }', {
      input: missing.map((name) => ({ facetId, code: slug(name), translations: names(name) })),
    });
  }

  const zones = await gql<{ zones: { items: { id: string }[] } }>(
    `{ zones(options: { filter: { name: { eq: "Europe" } } }) { items { id } } }`,
  );
  const zoneId = zones.zones.items[0]?.id;
  if (!zoneId) throw new Error('Vendure has no zone "Europe" (shops/vendure/server.mjs creates it)');
  let taxes = 0;
  for (const tax of TAXES) {
    const categories = await gql<{ taxCategories: { items: { id: string }[] } }>(
      'query($n: String!) { taxCategories(options: { filter: { name: { eq: $n } } }) { items { id } } }',
      { n: tax.name },
    );
    if (categories.taxCategories.items.length > 0) continue;
    const created = await gql<{ createTaxCategory: { id: string } }>(
      'mutation($n: String!) { createTaxCategory(input: { name: $n }) { id } }',
      { n: tax.name },
    );
    await gql(
      'mutation($n: String!, $v: Float!, $c: ID!, $z: ID!) { createTaxRate(input: { name: $n, enabled: true, value: $v, categoryId: $c, zoneId: $z }) { id } }',
      { n: `${tax.name} DE`, v: tax.rate, c: created.createTaxCategory.id, z: zoneId },
    );
    taxes++;
  }
  return { manufacturers: missing.length, taxes };
}
