import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { channels, products } from '../db/schema';
import { badRequest } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { type CompletenessCursor, type Direction, encodeProductCursor, type Segment } from './product-cursor';
import { type ProductRow, selectRows, type Source } from './product-list-source';

/**
 * The product list by completeness score (`GetProducts?sort=completeness`, docs/completeness.md
 * "Sort by score") and the grid's badge: the score rows of one channel and language, kept by the
 * writes' triggers (migration 0026), read along `completeness_channel_idx (channel_key, lang,
 * score)`, whose entries end with the product's rowid (`product_key`, the table's key): the
 * keyset is (score, product_key), one index range, so a page costs the same at any size.
 *
 * Products without a score row in that channel and language (the channel has no rule in the
 * language, or the recompute after a new channel has not reached them yet) come after the scored
 * ones in both directions, by rowid: a list "worst first" never starts with unmeasured products.
 */
export interface ScoreChannel {
  key: number;
  channelId: string;
  lang: string;
}

/**
 * The channel and language of the badge and the sort: `completenessChannel` (for a sort
 * without it, the filter's `incompleteFor`), in `channelLanguage` or the channel's first
 * language. Null when neither is asked; a 400 naming the parameter for a channel that is not the
 * company's or a language it does not publish.
 */
export async function resolveScoreChannel(
  db: Database,
  tenant: Caller,
  input: { completenessChannel?: string; incompleteFor?: string; channelLanguage?: string },
  sorted: boolean,
): Promise<ScoreChannel | null> {
  const channelId = input.completenessChannel ?? (sorted ? input.incompleteFor : undefined);
  if (!channelId) {
    if (sorted) throw badRequest('completenessChannel: required with sort=completeness');
    return null;
  }
  const [row] = await db
    .select({ key: channels.id, languages: channels.languages })
    .from(channels)
    .where(and(eq(channels.channelId, channelId), eq(channels.companyId, tenant.companyId)));
  if (!row) throw badRequest('completenessChannel: no channel of the company has this id');
  const lang = input.channelLanguage ?? row.languages[0]!;
  if (!row.languages.includes(lang))
    throw badRequest(
      `channelLanguage: the channel does not publish ${lang} (it publishes ${row.languages.join(', ')})`,
    );
  return { key: row.key, channelId, lang };
}

const rowid = sql`${products}.rowid`;
const scoreOf = (channel: ScoreChannel, alias: string) =>
  sql`${sql.raw(alias)}.channel_key = ${channel.key} AND ${sql.raw(alias)}.lang = ${channel.lang}`;
/** A keyset column; over a joined set with `+` so SQLite seeks the set by id (product-list.ts, `keyed`). */
const keyed = (column: SQL, source: Source) => (source.joined ? sql`+${column}` : column);

/**
 * One segment of the order as a source: `rank` carries the score and `doc` the rowid, which
 * `selectRows` returns beside each row (the cursor's keys). A table source is read from the
 * score index first (`completeness cs CROSS JOIN products`); a joined set joins its scores.
 */
function segmentSource(source: Source, channel: ScoreChannel, segment: Segment): Source {
  if (segment === 'null')
    return {
      ...source,
      where: sql`${source.where} AND NOT EXISTS (SELECT 1 FROM completeness n WHERE n.product_key = ${rowid} AND ${scoreOf(channel, 'n')})`,
      rank: null,
      doc: rowid,
    };
  const from = source.joined
    ? sql`${source.from} CROSS JOIN completeness cs ON cs.product_key = ${rowid} AND ${scoreOf(channel, 'cs')}`
    : sql`completeness cs CROSS JOIN ${products} ON ${rowid} = cs.product_key`;
  const where = source.joined ? source.where : sql`${scoreOf(channel, 'cs')} AND ${source.where}`;
  return { ...source, from, where, rank: sql`cs.score`, doc: sql`cs.product_key` };
}

function segmentRows(
  db: Database,
  base: Source,
  channel: ScoreChannel,
  order: Direction,
  segment: Segment,
  after: CompletenessCursor | null,
  limit: number,
) {
  const source = segmentSource(base, channel, segment);
  const cmp = sql.raw(order === 'asc' ? '>' : '<');
  const dir = sql.raw(order);
  if (segment === 'null')
    return selectRows(
      db,
      source,
      after ? [sql`${keyed(rowid, base)} ${cmp} ${after.r}`] : [],
      sql`${rowid} ${dir}`,
      limit,
    );
  const extra = after
    ? [sql`(${keyed(sql`cs.score`, base)}, ${keyed(sql`cs.product_key`, base)}) ${cmp} (${after.k}, ${after.r})`]
    : [];
  return selectRows(db, source, extra, sql`cs.score ${dir}, cs.product_key ${dir}`, limit);
}

/** One keyset page of `source` by score in `channel` (scored first, then the unscored). */
export async function listByCompleteness(
  db: Database,
  source: Source,
  channel: ScoreChannel,
  order: Direction,
  cursor: CompletenessCursor | null,
  limit: number,
): Promise<{ items: ProductRow[]; nextCursor: string | null }> {
  const h = `${channel.channelId}/${channel.lang}`;
  if (cursor && cursor.h !== h)
    throw badRequest('cursor belongs to another channel or language; start again without cursor');
  const segments: Segment[] = ['value', 'null'];
  const start = cursor ? segments.indexOf(cursor.g) : 0;
  const found: { row: ProductRow; key: number | null; r: number; g: Segment }[] = [];
  for (let s = start; s < segments.length && found.length <= limit; s++) {
    const segment = segments[s]!;
    const rows = await segmentRows(
      db,
      source,
      channel,
      order,
      segment,
      s === start ? cursor : null,
      limit + 1 - found.length,
    );
    found.push(...rows.map((f) => ({ row: f.row, key: segment === 'value' ? f.rank : null, r: f.doc, g: segment })));
  }
  const items = found.slice(0, limit);
  const last = items.at(-1);
  const nextCursor =
    found.length > limit && last
      ? encodeProductCursor({ s: 'completeness', o: order, g: last.g, k: last.key, r: last.r, i: last.row.id, h })
      : null;
  return { items: items.map((f) => f.row), nextCursor };
}

/** The badge of each product of a page: its score and missing labels in the channel and language, null without a row. */
export async function scoresFor(
  db: Database,
  channel: ScoreChannel,
  productIds: string[],
): Promise<Map<string, { score: number; missing: string[] }>> {
  if (!productIds.length) return new Map();
  const rows = await db.all<{ id: string; score: number; missing: string | null }>(
    sql`SELECT p.id, cs.score, cs.missing FROM json_each(${JSON.stringify(productIds)}) j
      CROSS JOIN ${products} p ON p.id = j.value CROSS JOIN completeness cs ON cs.product_key = p.rowid AND ${scoreOf(channel, 'cs')}`,
  );
  return new Map(
    rows.map((r) => [r.id, { score: Number(r.score), missing: r.missing ? (JSON.parse(r.missing) as string[]) : [] }]),
  );
}
