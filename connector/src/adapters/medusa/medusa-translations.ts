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

export async function syncTranslations(
  api: MedusaApi,
  desired: DesiredProduct,
  ids: TargetIds,
  mapping: TargetMapping,
): Promise<void> {
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
  const managed = new Set(
    Object.entries(mapping.languages)
      .filter(([language]) => language !== mapping.defaultLanguage)
      .map(([, locale]) => locale),
  );
  const references = [ids.product, ...Object.values(ids.variants)];
  const { translations: existing } = await api.get<{ translations: Row[] }>(
    `/admin/translations${query({ reference_id: references, limit: 1000 })}`,
  );
  const create: Omit<Row, 'id'>[] = [];
  const update: { id: string; translations: Record<string, string> }[] = [];
  for (const row of wanted) {
    const found = existing.find((e) => e.reference_id === row.reference_id && e.locale_code === row.locale_code);
    if (!found) create.push(row);
    else if (!same(found.translations, row.translations)) update.push({ id: found.id, translations: row.translations });
  }
  const remove = existing
    .filter((e) => managed.has(e.locale_code))
    .filter((e) => !wanted.some((w) => w.reference_id === e.reference_id && w.locale_code === e.locale_code))
    .map((e) => e.id);
  if (create.length + update.length + remove.length === 0) return;
  await api.post('/admin/translations/batch', { create, update, delete: remove });
}
