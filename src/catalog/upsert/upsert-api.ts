import type { z } from 'zod';
import type { Database } from '../../db/client';
import { assertMayEditClassifications } from '../../classification/ai-switch';
import { assertDepartment, findCatalog } from '../../db/scope';
import { scopedCategoriesOf } from '../../db/product-scope';
import { forbidden } from '../../kernel/app-error';
import { NOT_PERMITTED } from '../../kernel/permissions';
import { rethrowSkuClash } from '../../model/sku';
import { ReferenceCache } from './resolve/reference-cache';
import { upsertRecords } from './upsert-products';
import type { UpsertProductInput, UpsertProductsInput, UpsertProductsOut, UpsertVariantInput } from './upsert.schemas';
import { UPSERT_FIELDS, type UpsertOutcome, type UpsertRecord } from './upsert-types';
import type { Caller } from '../../kernel/caller';
import { assertEnabled, readCompanyLanguages } from '../../model/company-languages';

type NodeInput = z.infer<typeof UpsertVariantInput>;

function toRecord(item: NodeInput, parentSku: string | null, categoryIds?: string[]): UpsertRecord {
  const fields: UpsertRecord['fields'] = {};
  for (const key of UPSERT_FIELDS) {
    const value = item[key];
    if (value !== undefined) fields[key] = value === null ? null : String(value);
  }
  return {
    sku: item.sku,
    parentSku,
    fields,
    categoryIds,
    values: item.values,
    classification:
      item.classification === undefined
        ? undefined
        : item.classification && { classes: item.classification.classes, features: item.classification.features ?? [] },
    media: item.media,
    references: item.references,
    featureBlocks: item.featureBlocks,
    translations: item.translations,
  };
}

/** Every language the items' translations name is enabled for the company: else 400 naming the field, before anything is written. */
async function assertTranslationLanguages(db: Database, tenant: Caller, items: z.infer<typeof UpsertProductInput>[]) {
  const named = items.flatMap((item, i) => [
    ...Object.keys(item.translations ?? {}).map((l) => [l, `items[${i}].translations.${l}`]),
    ...(item.variants ?? []).flatMap((v, j) =>
      Object.keys(v.translations ?? {}).map((l) => [l, `items[${i}].variants[${j}].translations.${l}`]),
    ),
  ]);
  if (named.length === 0) return;
  const settings = await readCompanyLanguages(db, tenant);
  for (const [language, field] of named) assertEnabled(settings, language!, field!);
}

const answer = ({ sku, status, productId, field, error }: UpsertOutcome) => ({ sku, status, productId, field, error });

/**
 * UpsertProducts: up to 1000 master products, each with its variants, created or updated by
 * SKU in one transaction (see upsertRecords). Answers per item in request order, each with
 * its variants' answers. A variant whose master item failed is still written when that
 * master already exists in the catalog; otherwise it fails naming parentSku.
 */
export async function upsertProducts(
  deps: { db: Database; files: R2Bucket | null },
  tenant: Caller,
  input: UpsertProductsInput,
): Promise<z.infer<typeof UpsertProductsOut>> {
  const classifies = input.items.some(
    (item) => item.classification !== undefined || (item.variants ?? []).some((v) => v.classification !== undefined),
  );
  if (classifies) assertMayEditClassifications(tenant);
  await assertDepartment(deps.db, tenant, input.departmentId);
  const catalog = await findCatalog(deps.db, tenant, input.catalogId, input.departmentId);
  await assertTranslationLanguages(deps.db, tenant, input.items);
  // A member limited to category subtrees writes the items in them; the others are answered one by one (docs/teams.md).
  const scope =
    tenant.productScope && !tenant.productScope.catalogIds.includes(catalog.id) ? tenant.productScope : null;
  if (scope && !scope.categoryIds.length) throw forbidden(NOT_PERMITTED);
  const scopeCategories = scope ? await scopedCategoriesOf(deps.db, scope, tenant.companyId, catalog.id) : undefined;
  const records: UpsertRecord[] = [];
  const spans: { master: number; variants: number[] }[] = [];
  for (const item of input.items as z.infer<typeof UpsertProductInput>[]) {
    const master = records.push(toRecord(item, null, item.categoryIds)) - 1;
    const variants = (item.variants ?? []).map((v) => records.push(toRecord(v, item.sku)) - 1);
    spans.push({ master, variants });
  }
  const outcomes = await upsertRecords(
    {
      db: deps.db,
      files: deps.files,
      companyId: tenant.companyId,
      actor: tenant,
      catalogId: catalog.id,
      mode: input.mode,
      dryRun: false,
      cache: new ReferenceCache(deps.db, tenant.companyId),
      catalogLanguage: catalog.language,
      ...(scopeCategories ? { scopeCategories } : {}),
    },
    records,
  ).catch((err) => rethrowSkuClash(err));
  const counts = { created: 0, updated: 0, unchanged: 0, error: 0 };
  for (const o of outcomes) counts[o.status]++;
  return {
    items: spans.map((span) => ({
      ...answer(outcomes[span.master]!),
      variants: span.variants.map((i) => answer(outcomes[i]!)),
    })),
    counts,
  };
}
