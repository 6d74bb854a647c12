import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../../db/client';
import { jsonInsert } from '../../db/json-rows';
import { importRejections, importWarnings } from '../../db/schema';
import { csvLine } from '../../exports/csv/csv-format';
import { PartWriter } from '../../exports/part-writer';

export interface Rejection {
  /** Position of the record in the file (its ordinal): the key that makes a retried slice write it once. */
  seq: number;
  sku: string | null;
  location: string;
  reason: string;
  /** What kind of reason (REASONS): the report groups by it. */
  code: string;
}

/** A product kept with a field changed by a documented rule (docs/import.md, "Field problems"). */
export interface ImportWarning {
  seq: number;
  sku: string | null;
  location: string;
  code: string;
  reason: string;
}

/**
 * What each reason code means, in the words of the report's group headings (docs/import.md has
 * the rules). Codes of rejections by the upsert are `invalid_<field>`.
 */
export const REASONS: Record<string, string> = {
  sku_missing: 'no SKU (SUPPLIER_PID / SUPPLIER_AID): product rejected',
  sku_duplicate: 'the same SKU twice in the file: the later product rejected',
  not_in_catalog: 'update or delete of a SKU that is not in the catalog: nothing done',
  texts_only: 'a delete in a texts-only import: nothing done',
  outside_scope: 'product or category outside your scope (or a SKU that is not in it): nothing done',
  map_group_unknown: 'group map entry naming a group the file does not define',
  map_product_unknown: 'group map entry naming a product that is not there',
  map_entry_incomplete: 'group map entry without PROD_ID or CATALOG_GROUP_ID',
  unit_alias: 'order unit mapped to a UN/ECE Rec. 20 code',
  unit_kept: 'order unit that is no UN/ECE Rec. 20 code nor a known alias: kept as written',
  field_invalid: 'field value that does not check: not stored',
  field_truncated: 'text longer than its field: cut',
  attribute_unknown: 'attribute not defined in your company: value left out',
  attribute_invalid: 'attribute value that does not parse: left out',
  class_unverified: 'class not in the loaded reference data: kept verbatim as unverified',
  class_extra: 'second class of one classification system: left out',
  feature_unverified: 'feature not listed for its class: kept verbatim as unverified',
  feature_value_text: 'feature value that does not parse: kept as text (unverified)',
  feature_dropped: 'feature without a class of its system, or given twice: left out',
  feature_system_skipped: 'feature system this service does not read: left out',
  price_invalid: 'price that does not check (amount, currency, tax, tier, territory or dates): left out',
  price_type: "price type that is neither BMEcat's nor udp_ (Listenpreis): the price kept, its type as udp_Listenpreis",
  price_flag: "PRICE_FLAG that does not check (its type or value): the price's flags left out, the price kept",
  price_tax:
    "TAX written as a percentage (19) where the file's BMEcat version writes a fraction (0.19): read as the fraction, the price kept",
  price_base:
    'price base (PRICE_BASE) with a part that does not check: the price kept, a unit alias mapped, an unknown unit kept as written, a bad value or factor left out',
  price_not_kept:
    'xChange allowance or surcharge that is no price tier (no minimum quantity, or nothing to apply it to): left out, the prices kept',
  formula_invalid:
    'price formula (FORMULA) that does not check against BMEcat 2005: left out, the prices naming it kept (strict: rejected)',
  details_not_kept:
    'part of a product no field stores (BMEcat PRODUCT_DETAILS REMARKS, MANUFACTURER_TYPE_DESCR …; xChange Legislation, PackagingUnit, ProductMarketingText …): left out, the product kept',
  order_details_not_kept:
    'CONTENT_UNIT other than the ORDER_UNIT, or NO_CU_PER_OU, QUANTITY_MIN or QUANTITY_INTERVAL other than 1: left out, the product kept',
  reference_type: 'product reference of an unknown type: stored as others',
  reference_invalid:
    'product reference to the product itself, without a target, twice, or with a bad quantity: left out',
  reference_ambiguous:
    'product reference by a manufacturer number that several products have: kept, pending until one product has it',
  attachment_not_kept:
    'xChange attachment field that does not check or has no place (an AttachmentType or AttachmentTypeSpecification not in the schema, a specification of a file reference, a language or date that does not read): left out, the attachment kept',
  translation_invalid: 'text in a further language that does not check: left out',
  language_skipped: 'texts in a language not enabled for your company: left out (languagesNotEnabled: skip)',
};

export const reasonLabel = (code: string) =>
  REASONS[code] ?? (code.startsWith('invalid_') ? `${code.slice(8)} does not check: product rejected` : code);

/**
 * Report rows go as JSON row lists (`jsonInsert`): a file with many field problems wrote one
 * statement per 14 warnings with bound parameters (346 statements for 1,600 products with 3
 * warnings each, docs/benchmarks.md "Import throughput"); now a few per batch.
 */
export function rejectionStatements(db: Database, jobId: string, rejections: Rejection[]): BatchStatement[] {
  const rows = rejections.map((r) => ({
    jobId,
    seq: r.seq,
    sku: r.sku,
    location: r.location,
    reason: r.reason,
    code: r.code,
  }));
  return jsonInsert(db, importRejections, rows, { orIgnore: true });
}

export function warningStatements(db: Database, jobId: string, warnings: ImportWarning[]): BatchStatement[] {
  const rows = warnings.map((w, n) => ({
    jobId,
    seq: w.seq,
    n,
    sku: w.sku,
    location: w.location,
    code: w.code,
    reason: w.reason,
  }));
  return jsonInsert(db, importWarnings, rows, { orIgnore: true });
}

/** Rejections and warnings counted by reason code: `rejected.<code>` and `warnings.<code>` (the job summary's groups). */
export async function reasonCounts(db: Database, jobId: string): Promise<Record<string, number>> {
  const [rejected, warned] = await Promise.all([
    db
      .select({ code: importRejections.code, n: count() })
      .from(importRejections)
      .where(eq(importRejections.jobId, jobId))
      .groupBy(importRejections.code),
    db
      .select({ code: importWarnings.code, n: count() })
      .from(importWarnings)
      .where(eq(importWarnings.jobId, jobId))
      .groupBy(importWarnings.code),
  ]);
  return Object.fromEntries([
    ...rejected.map((r) => [`rejected.${r.code}`, r.n]),
    ...warned.map((w) => [`warnings.${w.code}`, w.n]),
  ]);
}

/** One group's rows in file order, in pages of 1000 (keyset: position, then the warning's number). */
async function* groupRows(db: Database, jobId: string, kind: 'rejected' | 'warning', code: string) {
  let after = { seq: -1, n: 0 };
  for (;;) {
    const rows =
      kind === 'rejected'
        ? (
            await db
              .select()
              .from(importRejections)
              .where(
                and(
                  eq(importRejections.jobId, jobId),
                  eq(importRejections.code, code),
                  gt(importRejections.seq, after.seq),
                ),
              )
              .orderBy(asc(importRejections.seq))
              .limit(1000)
          ).map((r) => ({ ...r, n: 0 }))
        : await db
            .select()
            .from(importWarnings)
            .where(
              and(
                eq(importWarnings.jobId, jobId),
                eq(importWarnings.code, code),
                sql`(${importWarnings.seq}, ${importWarnings.n}) > (${after.seq}, ${after.n})`,
              ),
            )
            .orderBy(asc(importWarnings.seq), asc(importWarnings.n))
            .limit(1000);
    yield rows;
    if (rows.length < 1000) return;
    after = { seq: rows.at(-1)!.seq, n: rows.at(-1)!.n };
  }
}

/**
 * Writes the import report to R2 in bounded pages: a summary comment, one comment line per
 * reason with its count, then the rows (position, kind, sku, location, reason, code) grouped
 * by reason (rejections first), each group in file order. It is the job's result file,
 * downloaded with `Import/DownloadReport`.
 */
export async function writeReport(
  db: Database,
  files: R2Bucket,
  jobId: string,
  key: string,
  summary: Record<string, number>,
): Promise<number> {
  const upload = await files.createMultipartUpload(key, { httpMetadata: { contentType: 'text/csv; charset=utf-8' } });
  try {
    const writer = new PartWriter(upload, [], new Uint8Array());
    const totals = Object.entries(summary).filter(([k]) => !k.includes('.'));
    const groups = Object.entries(summary)
      .filter(([k]) => k.includes('.'))
      .map(([k, n]) => ({
        kind: k.startsWith('rejected.') ? ('rejected' as const) : ('warning' as const),
        code: k.slice(k.indexOf('.') + 1),
        n,
      }))
      .sort((a, b) => (a.kind === b.kind ? b.n - a.n : a.kind === 'rejected' ? -1 : 1));
    const head = [
      `# ${totals.map(([k, v]) => `${k}=${v}`).join(' ')}`,
      ...groups.map((g) => `# ${g.kind} ${g.code}: ${g.n} (${reasonLabel(g.code)})`),
    ];
    await writer.write(
      `\uFEFF${head.join('\r\n')}\r\n${csvLine(['position', 'kind', 'sku', 'location', 'reason', 'code'])}`,
    );
    for (const g of groups)
      for await (const rows of groupRows(db, jobId, g.kind, g.code))
        await writer.write(rows.map((r) => csvLine([r.seq, g.kind, r.sku, r.location, r.reason, g.code])).join(''));
    return (await writer.finish()).size;
  } catch (err) {
    await upload.abort().catch(() => undefined);
    throw err;
  }
}
