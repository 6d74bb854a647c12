import { z } from 'zod';
import { badRequest } from '../../kernel/app-error';
import { LANGUAGES_2005, LANGUAGES_ETIM } from './code-lists';
import { CLASSIFICATION_GROUPS } from '../../kernel/classification-groups';
import { PRODUCT_STATUSES } from '../../kernel/product-status';

/** The BMEcat dialects this service writes, by `exportType`. */
const BMECAT_FORMATS = ['BMEcat', 'BMEcat-ETIM', 'BMEcat12', 'BMEcat-2005onto'] as const;
export type BmecatFormat = (typeof BMECAT_FORMATS)[number];

/** Whether an exportType is one of the BMEcat dialects (they share the template options). */
export function isBmecatFormat(exportType: string): exportType is BmecatFormat {
  return (BMECAT_FORMATS as readonly string[]).includes(exportType);
}

/** The two namespaces of BMEcat 2005 (schemas/bmecat/README.md): official `2005fd`, or `2005` as openTRANS 2.1 imports it. */
export const NAMESPACES = {
  '2005fd': 'http://www.bmecat.org/bmecat/2005fd',
  '2005': 'http://www.bmecat.org/bmecat/2005',
} as const;

/** The namespace of BMEcat 2005 with the ontology extension (eCl@ss Advanced suppliers' files). */
export const NAMESPACE_ONTO = 'http://www.bmecat.org/bmecat/2005+onto';

/** Price types each schema accepts in `price_type` (XSD patterns; XSD's `\w` has no underscore, so ASCII letters and digits). */
const PRICE_TYPES: Record<BmecatFormat, RegExp> = {
  BMEcat: /^(gros_list|net_customer|net_customer_exp|net_list|nrp|udp_[A-Za-z0-9]{1,16})$/,
  'BMEcat-ETIM': /^(net_customer|net_list|nrp)$/,
  BMEcat12: /^(gros_list|net_customer|net_customer_exp|net_list|nrp|udp_[A-Za-z0-9]{1,16})$/,
  'BMEcat-2005onto': /^(gros_list|net_customer|net_customer_exp|net_list|nrp|udp_[A-Za-z0-9]{1,16})$/,
};

/**
 * Options an export template carries (stored as `export_templates.options`). Every field is
 * optional; the defaults are the export's behaviour without a template.
 */
export const TemplateOptions = z.strictObject({
  /** BMEcat 2005 namespace: `2005fd` (official, default) or `2005` (openTRANS 2.1). BMEcat only. */
  namespace: z.enum(['2005fd', '2005']).optional(),
  /** Which classification systems become PRODUCT_FEATURES blocks (default: all). */
  classificationSystems: z.array(z.enum(CLASSIFICATION_GROUPS)).max(3).optional(),
  /** `price_type` of the list price, e.g. net_list (default), net_customer, nrp, gros_list. */
  priceType: z.string().max(20).optional(),
  /** Export only this category and its subcategories (with the products placed there). */
  categoryId: z.uuid().nullish(),
  /** Which product statuses are exported (default: all). */
  statuses: z.array(z.enum(PRODUCT_STATUSES)).min(1).max(3).optional(),
  /** Write the company's own attributes as a PRODUCT_FEATURES block (default true). */
  includeAttributes: z.boolean().optional(),
  /** Variants take empty fields, attributes, classification and media from their master (default true). */
  inheritFromMaster: z.boolean().optional(),
  /** Base URL of the media files, written as MIME_ROOT (MIME_SOURCE is the file name). */
  mimeRoot: z
    .url({ protocol: /^https?$/ })
    .max(250)
    .optional(),
  /** BUYER_NAME in the header; the ETIM profile requires a buyer (default "All customers"). */
  buyerName: z.string().trim().min(1).max(50).optional(),
  /**
   * Leave out the USER_DEFINED_EXTENSIONS kept from imports (default false: the ETIM profile
   * writes the UDX.EDXF elements its schema lists; 2005 and 1.2 declare UDX content empty).
   */
  dropUdx: z.boolean().optional(),
  /**
   * BMEcat 2005 and 1.2: write the kept USER_DEFINED_EXTENSIONS verbatim (default false). Their
   * official schemas declare the extension empty (BMEcat leaves its content to a schema of the
   * receiver that redefines udxPRODUCT), so such a file validates only against that schema;
   * without the option the export leaves UDX out and says so.
   */
  udxVerbatim: z.boolean().optional(),
  /**
   * The channel this template feeds (docs/completeness.md): its requirements judge `onlyComplete`,
   * and while its review is on every format writes only the masters approved for it (docs/review.md).
   * The one option CSV and ETIMxChange templates take.
   */
  channelId: z
    .uuid()
    .nullish()
    .describe(
      'The channel this template feeds: with onlyComplete its requirements decide, and while its review is on only masters approved for it are written (every format; CSV and ETIMxChange take no other option); the job warns how many were held back',
    ),
  /** Export only the products complete for `channelId` in the template's language; the job warns how many it left out and why. */
  onlyComplete: z
    .boolean()
    .optional()
    .describe(
      "Only masters complete for channelId in the template's language, and of their variants only the complete ones (a complete master whose variants are all incomplete is written without them); the job's warnings count and name what was left out and what it lacks",
    ),
});
export type TemplateOptionsInput = z.infer<typeof TemplateOptions>;

/** price_type of the list price when the template names none. */
export const DEFAULT_PRICE_TYPE = 'net_list';

/** Checks the options that depend on the format; throws 400 naming the field. */
export function checkOptionsForFormat(format: BmecatFormat, language: string, options: TemplateOptionsInput): void {
  const languages = format === 'BMEcat-ETIM' ? LANGUAGES_ETIM : LANGUAGES_2005;
  if (!languages.has(language))
    throw badRequest(`language: "${language}" is not an ISO 639-2 code the ${format} schema accepts`);
  if (options.priceType !== undefined && !PRICE_TYPES[format].test(options.priceType)) {
    throw badRequest(
      `options.priceType: "${options.priceType}" is not a ${format} price type (${PRICE_TYPES[format].source.replace(/[\^$()\\]/g, '')})`,
    );
  }
  if (options.namespace !== undefined && format !== 'BMEcat')
    throw badRequest(`options.namespace: only for exportType BMEcat`);
  if (options.udxVerbatim && format === 'BMEcat-ETIM')
    throw badRequest(
      'options.udxVerbatim: only for exportType BMEcat and BMEcat12 (the ETIM profile writes the UDX.EDXF elements its schema lists)',
    );
  if (options.udxVerbatim && options.dropUdx)
    throw badRequest('options.udxVerbatim: cannot be combined with options.dropUdx');
}

/** Parses stored options (a template written by an older version may not parse: that is the template's fault, so 400). */
export function parseStoredOptions(raw: unknown): TemplateOptionsInput {
  const parsed = TemplateOptions.safeParse(raw ?? {});
  if (!parsed.success)
    throw badRequest(
      `the export template's options are not valid: ${parsed.error.issues[0]?.message ?? 'unknown problem'}`,
    );
  return parsed.data;
}
