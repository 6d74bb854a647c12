import type { TargetIds, TargetMapping } from '../target-adapter';
import { type MedusaApi, query } from './medusa-api';
import type { DesiredProduct } from './medusa-shape';

/**
 * Translations through Medusa's Translation Module (2.12.3+, behind the `translation` feature
 * flag): one row per product / variant and locale (`reference`, `reference_id`, `locale_code`,
 * `translations`). Rows of the mapping's locales that the record no longer carries are
 * deleted; rows of other locales (the shop's own) are left alone.
 */
interface Row {
  id: string;
  reference_id: string;
  reference: string;
  locale_code: string;
  translations: Record<string, string>;
}

const same = (a: Record<string, string>, b: Record<string, string>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/** The rows one product (and its variants) should have. */
function wantedRows(desired: DesiredProduct, ids: TargetIds): Omit<Row, 'id'>[] {
  const wanted: Omit<Row, 'id'>[] = [];
  for (const [locale, translations] of Object.entries(desired.translations)) {
    wanted.push({ reference_id: ids.product, reference: 'product', locale_code: locale, translations });
  }
  for (const variant of desired.variants) {
    const id = ids.variants[variant.sku];
    if (!id) continue;
    for (const [locale, translations] of Object.entries(variant.translations)) {
      wanted.push({ reference_id: id, reference: 'product_variant', locale_code: locale, translations });
    }
  }
  return wanted;
}

/** References per read of the existing rows: a row per reference and locale stays under the read's limit. */
const REFERENCES_PER_READ = 100;

/** The translations of several products brought to the records': one read per 100 references, one batch for all. */
export async function syncTranslations(
  api: MedusaApi,
  products: { desired: DesiredProduct; ids: TargetIds }[],
  mapping: TargetMapping,
): Promise<void> {
  const wanted = products.flatMap(({ desired, ids }) => wantedRows(desired, ids));
  const managed = new Set(
    Object.entries(mapping.languages)
      .filter(([language]) => language !== mapping.defaultLanguage)
      .map(([, locale]) => locale),
  );
  const references = products.flatMap(({ ids }) => [ids.product, ...Object.values(ids.variants)]);
  const existing: Row[] = [];
  for (let i = 0; i < references.length; i += REFERENCES_PER_READ) {
    const { translations } = await api.get<{ translations: Row[] }>(
      `/admin/translations${query({ reference_id: references.slice(i, i + REFERENCES_PER_READ), limit: 1000 })}`,
    );
    existing.push(...translations);
  }
  const key = (r: { reference_id: string; locale_code: string }) => `${r.reference_id}\u0000${r.locale_code}`;
  const held = new Map(existing.map((e) => [key(e), e]));
  const wantedKeys = new Set(wanted.map(key));
  const create: Omit<Row, 'id'>[] = [];
  const update: { id: string; translations: Record<string, string> }[] = [];
  for (const row of wanted) {
    const found = held.get(key(row));
    if (!found) create.push(row);
    else if (!same(found.translations, row.translations)) update.push({ id: found.id, translations: row.translations });
  }
  const remove = existing.filter((e) => managed.has(e.locale_code) && !wantedKeys.has(key(e))).map((e) => e.id);
  if (create.length + update.length + remove.length === 0) return;
  await api.post('/admin/translations/batch', { create, update, delete: remove });
}
