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
  type WriteContext,
} from '../target-adapter';
import { resolveMpnReferences } from '../common/references';
import { ShopwareClient } from './client';
import { loadContext, readLanguages, type ShopContext } from './context';
import { shopwareId } from './ids';
import { uploadMissingMedia } from './media';
import { readCategoryPictures } from './pictures';
import { OWNED, PlanError, planProduct, type RecordPlan } from './plan';
import { type Dropped, retireMedia } from './retire';
import { type OwnedItem, runSync, type SyncFailure } from './sync';

/**
 * The Shopware 6 adapter (docs/shops.md): products through the Admin API's Sync API, one
 * `POST /api/_action/sync` per batch (plus the image uploads), ids derived from SKUs and
 * natural keys (ids.ts) so every write is an upsert of the same entities. A product found by
 * its product number whose id is not the PIM's is the shop's own and is never written.
 */
export const SHOPWARE_BATCH_SIZE = 50;
const OWNED_BY_SHOP = 'the SKU belongs to a product the shop owns';

interface FoundProduct {
  id: string;
  productNumber: string;
  parentId: string | null;
}

export function createShopwareAdapter(config: TargetConfig, deps: AdapterDeps): TargetAdapter {
  const { clientId, clientSecret } = config.credentials;
  if (!clientId || !clientSecret) throw new TargetError('Shopware needs an integration’s client id and secret', false);
  const client = new ShopwareClient(deps.http, config.url.replace(/\/+$/, ''), { clientId, clientSecret });
  let context: Promise<ShopContext> | null = null;
  const shop = () => {
    context ??= loadContext(client, config.mapping).catch((err) => {
      context = null;
      throw err;
    });
    return context;
  };

  async function findProducts(skus: string[]): Promise<FoundProduct[]> {
    if (skus.length === 0) return [];
    return client.searchAll<FoundProduct>('product', {
      filter: [{ type: 'equalsAny', field: 'productNumber', value: skus.join('|') }],
      includes: { product: ['id', 'productNumber', 'parentId'] },
    });
  }

  return {
    kind: 'shopware',
    batchSize: SHOPWARE_BATCH_SIZE,

    async probe(): Promise<TargetProbe> {
      const version = await client.request('GET', '/_info/version');
      const languages = await readLanguages(client);
      const currencies = await client.searchAll<{ isoCode: string }>('currency', {
        includes: { currency: ['isoCode'] },
      });
      const channels = await client.searchAll<{ name: string | null; translated?: { name?: string } }>(
        'sales_channel',
        {
          includes: { sales_channel: ['name', 'translated'] },
        },
      );
      const shopVersion = (version.body as { version?: string } | null)?.version ?? 'unknown';
      return {
        name: `Shopware ${shopVersion}`,
        languages: languages.flatMap((l) => (l.locale ? [l.locale] : [])),
        currencies: currencies.map((c) => c.isoCode),
        details: {
          version: shopVersion,
          salesChannels: channels.map((c) => c.translated?.name ?? c.name ?? '').join(', '),
        },
      };
    },

    async mappings(): Promise<Mappings> {
      type Named = { id: string; name?: string | null; translated?: { name?: string; shortCode?: string } };
      const manufacturers = await client.searchAll<Named>('product_manufacturer', {
        includes: { product_manufacturer: ['id', 'name', 'translated'] },
      });
      const units = await client.searchAll<Named & { shortCode?: string | null }>('unit', {
        includes: { unit: ['id', 'shortCode', 'translated'] },
      });
      const taxes = await client.searchAll<{ id: string; name: string; taxRate: number }>('tax', {
        includes: { tax: ['id', 'name', 'taxRate'] },
      });
      return {
        manufacturers: manufacturers.map((m) => ({ id: m.id, name: m.translated?.name ?? m.name ?? '' })),
        units: units.map((u) => ({ id: u.id, code: u.translated?.shortCode ?? u.shortCode ?? '' })),
        taxes: taxes.map((t) => ({ id: t.id, code: t.name, rate: Number(t.taxRate) })),
      };
    },

    async findBySku(skus: string[]): Promise<Map<string, TargetIds>> {
      const masters = (await findProducts(skus)).filter((p) => !p.parentId);
      const children = masters.length
        ? await client.searchAll<FoundProduct>('product', {
            filter: [{ type: 'equalsAny', field: 'parentId', value: masters.map((m) => m.id).join('|') }],
            includes: { product: ['id', 'productNumber', 'parentId'] },
          })
        : [];
      const out = new Map<string, TargetIds>();
      for (const master of masters) {
        const variants: Record<string, string> = {};
        for (const child of children) if (child.parentId === master.id) variants[child.productNumber] = child.id;
        out.set(master.productNumber, { product: master.id, variants });
      }
      return out;
    },

    async write(targets: TargetRecord[], ctx: WriteContext): Promise<RecordOutcome[]> {
      const context = await shop();
      const mapping = config.mapping;
      // References by manufacturer number become references by SKU first (common/references.ts).
      const { targets: records, failed } = mapping.references
        ? await resolveMpnReferences(targets, ctx)
        : { targets, failed: [] };
      const failures = new Map<number, SyncFailure>();
      const fail = (index: number, field: string, error: string, retryable = false) => {
        if (!failures.has(index)) failures.set(index, { field, error, retryable });
      };

      // Who owns what: derived ids are the PIM's; anything else under one of our SKUs is the shop's.
      const derived = new Map<string, string>();
      const allSkus = records.flatMap((r) => [r.record.sku, ...(r.record.product?.variants.map((v) => v.sku) ?? [])]);
      for (const sku of allSkus) derived.set(sku, await shopwareId('product', sku));
      const lookup = records
        .filter((r) => !r.known)
        .flatMap((r) => [r.record.sku, ...(r.record.product?.variants.map((v) => v.sku) ?? [])]);
      const found = new Map((await findProducts(lookup)).map((p) => [p.productNumber, p]));
      const exists = new Set<string>();
      for (const r of records) {
        if (r.known) {
          exists.add(r.known.product);
          for (const id of Object.values(r.known.variants)) exists.add(id);
        }
        const skus = [r.record.sku, ...(r.record.product?.variants.map((v) => v.sku) ?? [])];
        for (const sku of skus) {
          const hit = found.get(sku);
          if (hit && hit.id !== derived.get(sku)) fail(r.index, 'record', OWNED_BY_SHOP);
          else if (hit) exists.add(hit.id);
        }
        if (r.known && r.known.product !== derived.get(r.record.sku)) fail(r.index, 'record', OWNED_BY_SHOP);
      }

      // Cross-selling assigns referenced products by their id in the mirror (references.ts).
      const referenced = mapping.references
        ? [...new Set(records.flatMap((r) => r.record.product?.references?.map((ref) => ref.sku) ?? []))]
        : [];
      const mirrored = referenced.length > 0 ? await ctx.idsOf(referenced) : new Map<string, TargetIds>();
      const referencedId = (sku: string) => mirrored.get(sku)?.product;

      // Category pictures are media by content hash, as product images are: read their hash first.
      const pictures = await readCategoryPictures(
        records.filter((r) => !failures.has(r.index) && r.record.op !== 'deactivate'),
        ctx,
      );
      const pictureSha = (url: string): string | Error => {
        const picture = pictures.get(url);
        return picture instanceof Error ? picture : (picture?.sha256 ?? new Error('the category picture was not read'));
      };

      const items: OwnedItem[] = [];
      const plans = new Map<number, RecordPlan>();
      const deactivated = new Map<number, TargetIds | null>();
      const planCtx = {
        ...context,
        mapping,
        exists: (id: string) => exists.has(id),
        referencedId,
        refusedUrl: ctx.refusedUrl,
      };
      // The images a record showed (its previous product, its mirror ids) and no longer shows: retire.ts.
      const dropped: Dropped[] = [];
      const drop = (r: TargetRecord, before: RecordPlan | null, now: RecordPlan | null) => {
        const kept = new Set([...(now?.media.values() ?? [])].map((m) => m.mediaId));
        const held = [...(before?.media.values() ?? [])].map((m) => m.mediaId);
        for (const mediaId of new Set([...held, ...Object.values(r.known?.media ?? {})]))
          if (!kept.has(mediaId)) dropped.push({ owner: r.index, mediaId });
      };
      const previousPlan = (r: TargetRecord) =>
        r.previous ? planProduct(r.record.sku, r.previous, planCtx).catch(() => null) : Promise.resolve(null);
      for (const r of records) {
        if (failures.has(r.index)) continue;
        const masterId = derived.get(r.record.sku) as string;
        if (r.record.op === 'deactivate') {
          const held = r.known ?? (exists.has(masterId) ? { product: masterId, variants: {} } : null);
          if (!held) {
            deactivated.set(r.index, null);
            continue;
          }
          if (mapping.onDeactivate === 'delete') drop(r, await previousPlan(r), null);
          const ids = [held.product, ...Object.values(held.variants)];
          for (const id of ids) {
            items.push(
              mapping.onDeactivate === 'delete'
                ? { op: 'product', action: 'delete', owner: r.index, field: 'record', payload: { id } }
                : { op: 'product', action: 'upsert', owner: r.index, field: 'record', payload: { id, active: false } },
            );
          }
          deactivated.set(r.index, mapping.onDeactivate === 'delete' ? null : held);
          continue;
        }
        try {
          const plan = await planProduct(r.record.sku, r.record.product, { ...planCtx, pictureSha });
          plans.set(r.index, plan);
          for (const item of plan.items) items.push({ ...item, action: 'upsert', owner: r.index });
          const before = await previousPlan(r);
          drop(r, before, plan);
          for (const entity of OWNED) {
            const now = plan.owned.get(entity) as Map<string, Record<string, unknown>>;
            const held = new Map(before?.owned.get(entity) ?? []);
            if (entity === 'product') for (const id of Object.values(r.known?.variants ?? {})) held.set(id, { id });
            for (const [key, payload] of held) {
              if (!now.has(key)) items.push({ op: entity, action: 'delete', owner: r.index, field: 'record', payload });
            }
          }
        } catch (err) {
          if (!(err instanceof PlanError)) throw err;
          fail(r.index, err.field, err.message, err.retryable);
        }
      }

      items.push(...(await retireMedia(client, items, dropped)));
      for (const [index, failure] of await runSync(client, items)) failures.set(index, failure);
      const uploads = [...plans].filter(([index]) => !failures.has(index));
      for (const [index, failure] of await uploadMissingMedia(client, uploads, records, pictures, ctx.linkBytes))
        failures.set(index, failure);
      // New bytes behind a picture's URL are recorded once a record showing them is written.
      const shown = new Set(
        [...plans].filter(([index]) => !failures.has(index)).flatMap(([, p]) => [...p.categoryMedia.values()]),
      );
      for (const url of new Set([...shown].map((image) => image.link.url))) await ctx.categoryPictureSent?.(url);

      return [
        ...failed,
        ...records.map((r): RecordOutcome => {
          const failure = failures.get(r.index);
          if (failure) return { index: r.index, ok: false, ...failure };
          if (deactivated.has(r.index)) {
            return { index: r.index, ok: true, ids: deactivated.get(r.index) ?? null, action: 'deactivated' };
          }
          const plan = plans.get(r.index) as RecordPlan;
          const media = Object.fromEntries([...plan.media].map(([sha, m]) => [sha, m.mediaId]));
          return {
            index: r.index,
            ok: true,
            ids: { product: plan.productId, variants: plan.variants, media },
            action: exists.has(plan.productId) ? 'updated' : 'created',
          };
        }),
      ];
    },
  };
}
