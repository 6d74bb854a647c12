import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { AppError } from '../kernel/app-error';
import type { ExportWarnings } from './export-warnings';

/**
 * Template option `onlyComplete` (docs/completeness.md): an export writes only the masters that
 * have no score under 100 for the template's channel in the export's language. The scores are
 * the stored ones the writes keep current, so the condition is one index lookup per master.
 */
export interface CompleteFor {
  channelKey: number;
  channelName: string;
  lang: string;
}

/** "Complete for the channel" on master products of `alias` (e.g. sql`p`). */
export function completeCondition(complete: CompleteFor, alias: SQL): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM completeness cs WHERE cs.product_key = ${alias}.rowid
    AND cs.channel_key = ${complete.channelKey} AND cs.lang = ${complete.lang} AND cs.score < 100)`;
}

/** The channel of a template with onlyComplete, or null without the option; an AppError when the channel is gone. */
export async function resolveCompleteFor(
  db: Database,
  companyId: string,
  options: { channelId?: string | null; onlyComplete?: boolean },
  lang: string,
): Promise<CompleteFor | null> {
  if (!options.onlyComplete) return null;
  const [row] = await db.all<{ id: number; name: string }>(
    sql`SELECT id, name FROM channels WHERE channel_id = ${options.channelId ?? ''} AND company_id = ${companyId}`,
  );
  if (!row)
    throw new AppError('bad_request', "the template's channel no longer exists; choose another or drop onlyComplete");
  return { channelKey: row.id, channelName: row.name, lang };
}

/**
 * Warns about the masters of one page an onlyComplete export left out, with what each lacks:
 * those of the catalog with ids in (after, upTo] (upTo null: to the end) and a score under 100.
 */
export async function warnSkipped(
  db: Database,
  catalogId: string,
  complete: CompleteFor,
  after: string | null,
  upTo: string | null,
  w: ExportWarnings,
): Promise<void> {
  const rows = await db.all<{ sku: string | null; id: string; missing: string | null }>(sql`
    SELECT p.sku, p.id, cs.missing FROM products p CROSS JOIN completeness cs ON cs.product_key = p.rowid
    WHERE p.catalog_id = ${catalogId} AND p.parent_id IS NULL
      ${after ? sql`AND p.id > ${after}` : sql``} ${upTo ? sql`AND p.id <= ${upTo}` : sql``}
      AND cs.channel_key = ${complete.channelKey} AND cs.lang = ${complete.lang} AND cs.score < 100`);
  const what = `${complete.channelName} (${complete.lang})`;
  for (const row of rows) {
    const subject = row.sku ?? row.id;
    w.add(`left out as incomplete for ${what}`, subject);
    for (const label of row.missing ? (JSON.parse(row.missing) as string[]) : [])
      w.add(`incomplete for ${what}: missing ${label}`, subject);
  }
}
