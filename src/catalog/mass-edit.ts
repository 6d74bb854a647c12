import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { classificationFeatures, products } from '../db/schema';
import type { JobMessage } from '../env';
import { badRequest, notFound } from '../kernel/app-error';
import { parseFeatureValue } from '../classification/feature-values';
import { enqueueJob } from '../jobs/jobs';
import { findAttributeByCode } from './attributes';
import { builtInField } from '../model/fields';
import { ProductFilter, type ProductFilterInput } from './product-filter';
import { assertDepartment, findCatalog } from '../db/scope';
import { parseValue } from '../kernel/value-types';
import type { Caller } from '../kernel/caller';
import { assertNamedInScope } from '../db/product-scope';
import { narrowingScope } from '../db/scope-counts';
import { forbidden } from '../kernel/app-error';
import { NOT_PERMITTED } from '../kernel/permissions';

const MAX_MASS_EDIT_IDS = 5000;

export const StartMassEditDto = z
  .strictObject({
    departmentId: z.uuid(),
    catalogId: z.uuid(),
    /** An explicit selection (e.g. ticked rows of the grid)... */
    productIds: z.array(z.uuid()).min(1).max(MAX_MASS_EDIT_IDS).optional(),
    /** ...or everything the grid's filter matches (master products). */
    filter: ProductFilter.optional(),
    /** A built-in product field, an attribute code or a classification feature code (as SetValue). */
    field: z.string().min(1).max(100),
    /** The new value as a string, parsed as SetValue parses it; "" clears an optional field. */
    value: z.string().max(32000),
  })
  .refine((input) => (input.productIds === undefined) !== (input.filter === undefined), {
    message: 'give exactly one of productIds or filter',
  });

type StartMassEditInput = z.infer<typeof StartMassEditDto>;

/** What a mass-edit job carries in `jobs.params`. */
export interface MassEditParams {
  catalogId: string;
  departmentId: string;
  field: string;
  value: string;
  productIds: string[] | null;
  filter: ProductFilterInput | null;
  /**
   * The member's category scope when it narrows the catalog (docs/teams.md): the job's caller
   * carries no scope, so the job carries what its start was checked for. Absent: not narrowed.
   */
  scopeCategoryIds?: string[];
}

/**
 * Fields that must stay unique per product: setting one value on many products can only fail.
 */
const NOT_MASS_EDITABLE = new Set(['sku']);

/**
 * Checks field and value before anything is queued, so a typo is a 400 now and not a job that
 * fails on every product. Per-product rules (e.g. a feature the product's class lacks) are
 * checked again by SetValue's own planning for each product and land in the report.
 */
async function checkFieldAndValue(db: Database, tenant: Caller, field: string, value: string): Promise<void> {
  if (NOT_MASS_EDITABLE.has(field))
    throw badRequest(`field: ${field} must be unique per product and cannot be mass-edited`);
  const builtIn = builtInField('product', field);
  if (builtIn) {
    if (value === '' && builtIn.required) throw badRequest(`value: ${field} must not be empty`);
    if (value !== '') parseValue(field, value, builtIn.rule);
    return;
  }
  const attribute = await findAttributeByCode(db, tenant, field);
  if (attribute) {
    if (value !== '')
      parseValue(field, value, { type: attribute.type, unit: attribute.unit, enumValues: attribute.enumValues });
    return;
  }
  const features = await db
    .select({ group: classificationFeatures.group })
    .from(classificationFeatures)
    .where(eq(classificationFeatures.code, field));
  if (features.length === 0) {
    throw badRequest(`field: "${field}" is not a product field, an attribute, or a classification feature`);
  }
  if (value === '') return;
  // Valid for at least one system that defines the code (codes rarely repeat across systems).
  let firstError: unknown;
  for (const { group } of features) {
    try {
      await parseFeatureValue(db, group, field, value);
      return;
    } catch (err) {
      firstError ??= err;
    }
  }
  throw firstError;
}

/** 404 unless every id is a product or variant of the catalog (and so of the caller's company). */
async function assertProductsInCatalog(db: Database, tenant: Caller, catalogId: string, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 90) {
    const chunk = ids.slice(i, i + 90);
    const found = await db
      .select({ id: products.id })
      .from(products)
      .where(
        and(inArray(products.id, chunk), eq(products.companyId, tenant.companyId), eq(products.catalogId, catalogId)),
      );
    if (found.length !== chunk.length) throw notFound('product');
  }
}

/**
 * `Catalog/StartMassEdit`: validates the request, then queues a `massEdit` job that sets one
 * field on every selected product in resumable slices (see mass-edit-runner.ts).
 */
export async function startMassEdit(
  deps: { db: Database; queue: Queue<JobMessage> },
  caller: Caller,
  input: StartMassEditInput,
) {
  const { db } = deps;
  await assertDepartment(db, caller, input.departmentId);
  const catalog = await findCatalog(db, caller, input.catalogId, input.departmentId);
  await checkFieldAndValue(db, caller, input.field, input.value);
  const productIds = input.productIds ? [...new Set(input.productIds)].sort() : null;
  // A member limited to category subtrees edits the selection's products in them: ids outside are
  // refused whole (403, as the operation guard does before validation), a filter is narrowed to
  // the subtrees by the job and the rest counted as skipped (docs/teams.md).
  const scope = narrowingScope(caller, catalog.id);
  if (scope && !scope.categoryIds.length) throw forbidden(NOT_PERMITTED);
  if (scope && productIds)
    await assertNamedInScope(db, caller, { products: productIds, elements: [], categories: [], catalogs: [] }, 'write');
  if (productIds) await assertProductsInCatalog(db, caller, catalog.id, productIds);
  const params: MassEditParams = {
    catalogId: catalog.id,
    departmentId: input.departmentId,
    field: input.field,
    value: input.value,
    productIds,
    filter: input.filter ?? null,
    ...(scope ? { scopeCategoryIds: [...scope.categoryIds] } : {}),
  };
  return enqueueJob(
    deps,
    { companyId: caller.companyId, departmentId: input.departmentId, userId: caller.userId },
    { kind: 'massEdit', params: params as unknown as Record<string, unknown>, total: productIds?.length ?? 0 },
  );
}
