import { and, eq } from 'drizzle-orm';
import { categories, companies } from '../../db/schema';
import { AppError } from '../../kernel/app-error';
import type { ExportContext } from '../exporter';
import { countProductsInScope, type ExportScope } from './catalog-queries';
import {
  checkOptionsForFormat,
  DEFAULT_PRICE_TYPE,
  NAMESPACE_ONTO,
  NAMESPACES,
  parseStoredOptions,
  type BmecatFormat,
  type TemplateOptionsInput,
} from './template-options';
import { CLASSIFICATION_GROUPS, type ClassificationGroup } from '../../kernel/classification-groups';
import { PRODUCT_STATUSES, type ProductStatus } from '../../kernel/product-status';
import { resolveCompleteFor } from '../complete-for';
import type { PriceFlags } from '../../model/price-flags';
import { sharedPriceFlags } from './catalog-flags';
import { lastFormulaPosition } from '../../model/catalog-formulas';

/**
 * Everything a BMEcat export decides once, when it starts, and keeps in the job checkpoint:
 * the template's options resolved against their defaults, the header data, and the snapshot
 * time that pins which rows belong to the file.
 */
export interface BmecatPlan extends ExportScope {
  format: BmecatFormat;
  namespace: string;
  /** The file's default language (LANGUAGE default="true"; the only one BMEcat 1.2 writes): the template's, else the catalog's. */
  language: string;
  /**
   * Every language the file carries, `language` first, then the catalog's other languages
   * (docs/languages.md "Exports"). Absent in plans of jobs started before languages: `[language]`.
   */
  languages?: string[];
  /** The catalog's default language: the one the elements' own columns hold (absent: `language`). */
  catalogLanguage?: string;
  currency: string;
  systems: ClassificationGroup[];
  priceType: string;
  statuses: ProductStatus[];
  includeAttributes: boolean;
  inheritFromMaster: boolean;
  mimeRoot: string | null;
  /** BUYER_NAME from the template; the ETIM profile falls back to a generic buyer, others leave BUYER out. */
  buyerName: string | null;
  /** Template option dropUdx: kept USER_DEFINED_EXTENSIONS are not written. */
  dropUdx: boolean;
  /** Template option udxVerbatim: 2005 and 1.2 write kept USER_DEFINED_EXTENSIONS as imported. */
  udxVerbatim: boolean;
  supplierName: string;
  catalogName: string;
  catalogVersion: string | null;
  /** GROUP_ID of the synthetic root of CATALOG_GROUP_SYSTEM (the catalog itself). */
  rootGroupId: string;
  /**
   * BMEcat 1.2: the PRICE_FLAGs every price of the catalog shares, written once in the HEADER
   * (catalog-flags.ts); null or absent (other formats, older checkpoints): none there.
   */
  catalogFlags?: PriceFlags | null;
  /**
   * BMEcat 2005: the last position of the catalog's formulas when the export started
   * (catalog-formulas.ts): the file's FORMULAS are those up to it. Absent (other formats, older
   * checkpoints) or 0: none written, every price by formula reported as undefined.
   */
  formulasThrough?: number;
}

/** Resolves template and catalog into a plan; refuses (AppError, so the job fails with the reason) what cannot be exported. */
export async function makeBmecatPlan(ctx: ExportContext, format: BmecatFormat): Promise<BmecatPlan> {
  const options: TemplateOptionsInput = ctx.template ? parseStoredOptions(ctx.template.options) : {};
  const language = ctx.template?.language ?? ctx.catalog.language;
  // BMEcat 1.2 has one language per file (its elements carry no lang): the default one.
  const languages =
    format === 'BMEcat12' ? [language] : [language, ...ctx.catalog.languages.filter((l) => l !== language)];
  for (const l of languages) checkOptionsForFormat(format, l, options);
  const categoryId = options.categoryId ?? null;
  if (categoryId) {
    const category = await ctx.db.query.categories.findFirst({
      where: and(
        eq(categories.id, categoryId),
        eq(categories.companyId, ctx.companyId),
        eq(categories.catalogId, ctx.catalog.id),
      ),
      columns: { id: true },
    });
    if (!category) throw new AppError('bad_request', "the template's categoryId is not a category of this catalog");
  }
  const company = await ctx.db.query.companies.findFirst({
    where: eq(companies.id, ctx.companyId),
    columns: { name: true },
  });
  const plan: BmecatPlan = {
    format,
    namespace:
      format === 'BMEcat'
        ? NAMESPACES[options.namespace ?? '2005fd']
        : format === 'BMEcat-2005onto'
          ? NAMESPACE_ONTO
          : '',
    language,
    languages,
    catalogLanguage: ctx.catalog.language,
    currency: ctx.catalog.currency,
    systems: options.classificationSystems ?? [...CLASSIFICATION_GROUPS],
    priceType: options.priceType ?? DEFAULT_PRICE_TYPE,
    categoryId,
    statuses: options.statuses ?? [...PRODUCT_STATUSES],
    includeAttributes: options.includeAttributes ?? true,
    inheritFromMaster: options.inheritFromMaster ?? true,
    mimeRoot: options.mimeRoot ?? null,
    buyerName: options.buyerName ?? null,
    dropUdx: options.dropUdx ?? false,
    udxVerbatim: options.udxVerbatim ?? false,
    supplierName: company?.name ?? ctx.catalog.name,
    catalogName: ctx.catalog.name,
    catalogVersion: ctx.catalog.catalogVersion,
    rootGroupId: ctx.catalog.id,
    snapshot: new Date().toISOString(),
    complete: await resolveCompleteFor(ctx.db, ctx.companyId, options, language),
    ...(format === 'BMEcat12' ? { catalogFlags: await sharedPriceFlags(ctx) } : {}),
    ...(format === 'BMEcat' || format === 'BMEcat-2005onto'
      ? { formulasThrough: await lastFormulaPosition(ctx.db, { companyId: ctx.companyId, catalogId: ctx.catalog.id }) }
      : {}),
  };
  if (format === 'BMEcat-ETIM' && (await countProductsInScope(ctx, plan)) === 0) {
    throw new AppError(
      'bad_request',
      'the ETIM BMEcat guideline requires at least one PRODUCT, and this export selects none',
    );
  }
  return plan;
}
