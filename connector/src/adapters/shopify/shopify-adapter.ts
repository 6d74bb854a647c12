import type { Mappings } from '../../../../src/sync/protocol/wire';
import {
  type AdapterDeps,
  type RecordOutcome,
  type TargetAdapter,
  type TargetConfig,
  TargetError,
  type TargetIds,
  type TargetProbe,
  type TargetRecord,
} from '../target-adapter';
import { BULK_MIN_LINES } from './shopify-bulk';
import { writeInBulk } from './shopify-bulk-write';
import { resolveMpnReferences } from '../common/references';
import { createCollections } from './shopify-collections';
import { PRICE_LISTS, PRODUCT_VENDORS, SHOP_PROBE } from './shopify-documents';
import { failureOf, isFatal } from './shopify-failure';
import { createPriceBreaks } from './shopify-price-breaks';
import { createShopifyGraphql, graphqlErrorText, SHOPIFY_API_VERSION } from './shopify-graphql';
import { type Found, lookupBySku } from './shopify-lookup';
import { deactivateProduct, writeProduct } from './shopify-record';
import { completePending } from './shopify-references';

interface ShopProbeAnswer {
  shop: {
    name: string;
    myshopifyDomain: string;
    currencyCode: string;
    enabledPresentmentCurrencies: string[];
    plan: { publicDisplayName: string; shopifyPlus: boolean };
  };
  shopLocales: { locale: string; primary: boolean; published: boolean }[];
}

/**
 * Records per write, and per POST /upsert (X-Max-Batch-Records): a round's creates and
 * updates, up to 100 products, are one bulk operation of productSet and one of translations
 * (shopify-bulk-write.ts), each operation's own wait paid once.
 */
const BATCH_SIZE = 100;

/**
 * The Shopify adapter (docs/shops.md): the Admin GraphQL API (`SHOPIFY_API_VERSION`) with an
 * app's access token (`credentials.accessToken`). A master is one product written with
 * `productSet` (variants, options, `pim` metafields, images by URL), its categories manual
 * collections, its other languages `translationsRegister`. Quantity price breaks need a B2B
 * price list (Shopify Plus): where the shop has one in the mapped currency they go there,
 * elsewhere only each variant's price for quantity 1 is sent, which the probe's details say.
 */
export function createShopifyAdapter(config: TargetConfig, deps: AdapterDeps & { now?: () => number }): TargetAdapter {
  const accessToken = config.credentials.accessToken;
  if (!accessToken)
    throw new TargetError('the Shopify target needs credentials.accessToken (an Admin API access token)', false);
  const now = deps.now ?? Date.now;
  const gql = createShopifyGraphql({ http: deps.http, url: config.url, accessToken, now });
  const collections = createCollections(gql);
  const priceBreaks = createPriceBreaks(gql);

  async function probe(): Promise<TargetProbe> {
    const result = await gql.request<ShopProbeAnswer>(SHOP_PROBE);
    if (!result.data) throw new TargetError(`the shop refused the probe: ${graphqlErrorText(result.errors)}`, false);
    const { shop, shopLocales } = result.data;
    const lists = await gql.request<{ priceLists: { nodes: { name: string; currency: string }[] } }>(PRICE_LISTS);
    const priceLists = lists.data?.priceLists.nodes ?? [];
    return {
      name: shop.name,
      languages: shopLocales.map((locale) => locale.locale),
      currencies: [...new Set([shop.currencyCode, ...shop.enabledPresentmentCurrencies])],
      details: {
        apiVersion: SHOPIFY_API_VERSION,
        domain: shop.myshopifyDomain,
        plan: shop.plan.publicDisplayName,
        primaryLocale: shopLocales.find((locale) => locale.primary)?.locale ?? '',
        priceTiers:
          priceLists.length > 0
            ? `quantity price breaks go to the price list in the mapped currency (${priceLists.map((list) => `${list.name} ${list.currency}`).join(', ')})`
            : 'not sent: quantity price breaks need a B2B price list (Shopify Plus), which the shop does not have',
      },
    };
  }

  async function mappings(): Promise<Mappings> {
    const result = await gql.request<{ productVendors: { nodes: string[] } }>(PRODUCT_VENDORS, { first: 250 });
    if (!result.data)
      throw new TargetError(`the shop refused the vendor list: ${graphqlErrorText(result.errors)}`, false);
    return {
      // Shopify has no manufacturer records: a product's vendor is free text, so a vendor is its own id.
      manufacturers: result.data.productVendors.nodes.map((vendor) => ({ id: vendor, name: vendor })),
      // Shopify has no units of measure for products.
      units: [],
      // Shopify computes tax from the shop's regional settings; a variant is only taxable or not.
      taxes: [
        { id: 'taxable', code: 'taxable', rate: 0 },
        { id: 'exempt', code: 'exempt', rate: 0 },
      ],
    };
  }

  async function findBySku(skus: string[]): Promise<Map<string, TargetIds>> {
    const found = await lookupBySku(gql, skus);
    const ids = new Map<string, TargetIds>();
    for (const [sku, entry] of found) if (entry.owner === 'pim') ids.set(sku, entry.ids);
    return ids;
  }

  const write: TargetAdapter['write'] = async (records, ctx) => {
    // References by manufacturer number become references by SKU first (common/references.ts).
    const { targets, failed } = ctx.mapping.references
      ? await resolveMpnReferences(records, ctx)
      : { targets: records, failed: [] };
    // Referenced masters by their ids in the mirror, and the ones this chunk writes as it goes.
    const referenced = ctx.mapping.references
      ? [...new Set(targets.flatMap((target) => target.record.product?.references?.map((ref) => ref.sku) ?? []))]
      : [];
    const mirrored = referenced.length > 0 ? await ctx.idsOf(referenced) : new Map<string, TargetIds>();
    const written = new Map<string, string>();
    const productIdOf = (sku: string) => written.get(sku) ?? mirrored.get(sku)?.product;
    const recordDeps = {
      gql,
      collections,
      priceBreaks,
      mapping: ctx.mapping,
      refusedUrl: ctx.refusedUrl,
      categoryPictureChanged: ctx.categoryPictureChanged?.bind(ctx),
      categoryPictureSent: ctx.categoryPictureSent?.bind(ctx),
      productIdOf,
      requestsSent: () => deps.http.requests,
    };
    let found = new Map<string, Found>();
    let lookupFailure: TargetError | null = null;
    try {
      found = await lookupBySku(
        gql,
        targets.filter((target) => target.known === null).map((target) => target.record.sku),
      );
    } catch (error) {
      if (isFatal(error) || !(error instanceof TargetError)) throw error;
      lookupFailure = error;
    }
    const outcomes: RecordOutcome[] = [];
    // Creates and updates as bulk operations once there are enough of them (shopify-bulk-write.ts).
    const writes: { target: TargetRecord; known: TargetIds | null }[] = [];
    const bulk = targets.filter((target) => target.record.op !== 'deactivate').length >= BULK_MIN_LINES;
    for (const target of targets) {
      const { index } = target;
      try {
        if (target.known === null && lookupFailure) throw lookupFailure;
        const entry = found.get(target.record.sku);
        if (target.known === null && entry?.owner === 'shop') {
          outcomes.push(
            target.record.op === 'deactivate'
              ? { index, ok: true, ids: null, action: 'deactivated' }
              : { index, ok: false, field: 'sku', error: entry.reason, retryable: false },
          );
          continue;
        }
        const known = target.known ?? (entry?.owner === 'pim' ? entry.ids : null);
        if (bulk && target.record.op !== 'deactivate') {
          writes.push({ target, known });
          continue;
        }
        const outcome =
          target.record.op === 'deactivate'
            ? await deactivateProduct(recordDeps, target, known)
            : await writeProduct(recordDeps, target, known);
        if (outcome.ok && outcome.ids && target.record.op !== 'deactivate')
          written.set(target.record.sku, outcome.ids.product);
        outcomes.push(outcome);
      } catch (error) {
        outcomes.push(failureOf(index, error));
      }
    }
    if (writes.length > 0) {
      const bulkDeps = { gql, http: deps.http, shopUrl: config.url, refusedUrl: ctx.refusedUrl, now };
      const skuAt = new Map(writes.map(({ target }) => [target.index, target.record.sku]));
      for (const outcome of await writeInBulk(recordDeps, bulkDeps, writes)) {
        if (outcome.ok && outcome.ids) written.set(skuAt.get(outcome.index)!, outcome.ids.product);
        outcomes.push(outcome);
      }
    }
    if (ctx.mapping.references) await completePending(gql, targets, outcomes, ctx, productIdOf, mirrored);
    return [...failed, ...outcomes];
  };

  return { kind: 'shopify', batchSize: BATCH_SIZE, maxBatchRecords: BATCH_SIZE, probe, mappings, findBySku, write };
}
