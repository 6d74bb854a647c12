import { defaultMapping } from '../../../../src/sync/protocol/target';
import type { Mappings } from '../../../../src/sync/protocol/wire';
import { forgetKeptFacts, keptFacts } from '../common/kept-facts';
import type { AdapterDeps, TargetAdapter, TargetConfig, TargetIds, TargetMapping } from '../target-adapter';
import { codeUnits } from '../unit-codes';
import { createCatalog } from './vendure-catalog';
import { createVendureClient } from './vendure-client';
import type { ShopProduct } from './vendure-variants';
import { retireProductImages } from './vendure-retire';
import { findProducts, PRODUCT_BY_SKU, writeRecords } from './vendure-write';

/**
 * The Vendure adapter (docs/shops.md): Vendure's Admin GraphQL API (`.../admin-api`), signed in
 * as an administrator. A PIM master is a Vendure product marked by the custom field `pimSku`
 * (unique; the shop must declare it, as shops/vendure/server.mjs does), its variants are the
 * product's variants with option groups from the variant-defining features, features are
 * facets, categories collections, images uploaded assets tagged with their sha256.
 *
 * What Vendure's core does not have, and so is not written: quantity price tiers (the lowest
 * tier of the mapped price type is the channel price), units (accepted, written as a `pim-unit`
 * facet value), cross-selling, deleting a translation (a language the record no longer carries
 * gets the default language's texts; Vendure's API can only add and update translations),
 * deleting an image file another product may still show (images leave the product; the asset
 * stays in the shop's library).
 */

/** Vendure's defaults: net customer prices (no tiers in core), products deleted when the PIM deactivates them. */
export const VENDURE_DEFAULT_MAPPING: TargetMapping = {
  ...defaultMapping('vendure'),
  priceType: 'net_customer',
  features: { classification: true, values: false, featureBlocks: [] },
  onDeactivate: 'delete',
};

const PROBE = `query Probe {
  activeChannel { code defaultLanguageCode availableLanguageCodes availableCurrencyCodes defaultCurrencyCode pricesIncludeTax }
  globalSettings { availableLanguages }
  taxCategories(options: { take: 100 }) { items { id name } }
  taxRates(options: { take: 100 }) { items { value enabled category { id } zone { id } } }
}`;
const MANUFACTURERS = `query Manufacturers {
  facets(options: { filter: { code: { eq: "manufacturer" } }, take: 1 }) { items { values { id name } } }
}`;
const CUSTOM_FIELDS = `query Fields { globalSettings { serverConfig { entityCustomFields { entityName customFields { ... on CustomField { name } } } } } }`;

interface ProbeAnswer {
  activeChannel: {
    code: string;
    defaultLanguageCode: string;
    availableLanguageCodes: string[];
    availableCurrencyCodes: string[];
    defaultCurrencyCode: string;
    pricesIncludeTax: boolean;
  };
  taxCategories: { items: { id: string; name: string }[] };
  taxRates: { items: { value: number; enabled: boolean; category: { id: string } }[] };
}

/** The shop's channel and tax categories (the probe) and its mappings, kept across requests (common/kept-facts.ts). */
interface VendureFacts {
  probe: Promise<ProbeAnswer> | null;
  mappings: Promise<Mappings> | null;
}

export function createVendureAdapter(config: TargetConfig, deps: AdapterDeps & { now?: () => number }): TargetAdapter {
  const client = createVendureClient(config.url, config.credentials, deps.http);
  const { username, password, token } = config.credentials as { username?: string; password?: string; token?: string };
  const user = username ?? '\u0000token';
  const secret = password ?? token ?? '';
  const keep = () =>
    keptFacts<VendureFacts>('vendure', config.url, user, secret, () => ({ probe: null, mappings: null }));
  let kept = keep();
  /** Forgets the kept facts (the shop refused a record: a tax category may be gone); the next request reads them. */
  const forget = () => {
    forgetKeptFacts('vendure', config.url, user, kept);
    kept = keep();
  };
  // One catalog per adapter (one request): its chunks share the facet values and collections found.
  const catalog = createCatalog(client);
  const facts = (fresh = false) => {
    const held = kept;
    if (fresh || !held.probe) {
      const read = client.query<ProbeAnswer>(PROBE);
      held.probe = read;
      read.catch(() => {
        if (held.probe === read) held.probe = null;
      });
    }
    return held.probe;
  };
  const taxRates = (answer: ProbeAnswer) =>
    new Map(answer.taxRates.items.filter((r) => r.enabled).map((r) => [r.category.id, r.value]));

  return {
    kind: 'vendure',
    batchSize: 20,

    async probe() {
      const answer = await facts(true);
      const fields = await client.query<{
        globalSettings: {
          serverConfig: { entityCustomFields: { entityName: string; customFields: { name: string }[] }[] };
        };
      }>(CUSTOM_FIELDS);
      const product = fields.globalSettings.serverConfig.entityCustomFields.find((e) => e.entityName === 'Product');
      const marked = product?.customFields.some((f) => f.name === 'pimSku') ?? false;
      return {
        name: `Vendure (channel ${answer.activeChannel.code})`,
        languages: answer.activeChannel.availableLanguageCodes,
        currencies: answer.activeChannel.availableCurrencyCodes,
        details: {
          defaultLanguage: answer.activeChannel.defaultLanguageCode,
          defaultCurrency: answer.activeChannel.defaultCurrencyCode,
          pricesIncludeTax: String(answer.activeChannel.pricesIncludeTax),
          taxCategories: answer.taxCategories.items.map((t) => t.name).join(', '),
          pimSkuField: marked ? 'present' : 'missing: declare the unique Product custom field pimSku',
          priceTiers: 'not in Vendure core: the lowest tier is the channel price',
        },
      };
    },

    /**
     * The manufacturers, units and tax categories. `cached`: as read earlier in this isolate
     * (for a batch's validation; the connector asks without it when a record names an id they
     * lack); without it both the probe and the manufacturers are read again.
     */
    mappings(options?: { cached?: boolean }): Promise<Mappings> {
      const held = kept;
      if (options?.cached && held.mappings) return held.mappings;
      const read = (async () => {
        const answer = await facts(true);
        const rates = taxRates(answer);
        const makers = await client.query<{ facets: { items: { values: { id: string; name: string }[] }[] } }>(
          MANUFACTURERS,
        );
        return {
          manufacturers: makers.facets.items[0]?.values.map((v) => ({ id: v.id, name: v.name })) ?? [],
          units: codeUnits(),
          taxes: answer.taxCategories.items.map((t) => ({ id: t.id, code: t.name, rate: rates.get(t.id) ?? 0 })),
        };
      })();
      held.mappings = read;
      read.catch(() => {
        if (held.mappings === read) held.mappings = null;
      });
      return read;
    },

    async findBySku(skus) {
      const found = new Map<string, TargetIds>();
      for (let i = 0; i < skus.length; i += 100) {
        const page = await client.query<{ products: { items: ShopProduct[] } }>(PRODUCT_BY_SKU, {
          skus: skus.slice(i, i + 100),
        });
        for (const p of page.products.items) {
          if (!p.customFields.pimSku) continue;
          found.set(p.customFields.pimSku, {
            product: p.id,
            variants: Object.fromEntries(p.variants.map((v) => [v.sku, v.id])),
          });
        }
      }
      return found;
    },

    async write(records, ctx) {
      const answer = await facts();
      const writeDeps = {
        client,
        catalog,
        ctx,
        channelLanguage: answer.activeChannel.defaultLanguageCode,
        taxRates: taxRates(answer),
        pictures: new Map(),
        now: deps.now ?? Date.now,
      };
      const written = await writeRecords(writeDeps, records, await findProducts(client, records));
      const outcomes = await retireProductImages(client, records, written, ctx);
      if (outcomes.some((o) => !o.ok)) forget();
      return outcomes;
    },
  };
}
