import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { channels } from '../db/schema';
import { productScopeSql } from '../db/product-scope';
import { badRequest, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { getCompletenessOverview, MissingItem, missingItem } from './completeness-read';

/**
 * The incomplete products of one channel, worst first (docs/completeness.md): what an agent
 * asked "what is missing for the shop?" answers from, in one call (MCP `list_incomplete_products`,
 * `/api/ai/GetIncompleteProducts`, REST `Catalog/GetIncompleteProducts`). It walks the index
 * `completeness_channel_idx` (channel, language, score, product) from a keyset cursor, so a page
 * costs the same at any catalog size; the overview beside it comes from the counters.
 */
export const IncompleteQuery = z.strictObject({
  /** The channel's id or its name (case-insensitive), e.g. `Shop`. */
  channel: z.string().trim().min(1).max(100),
  /** Only this language (ISO 639-2); default: every language of the channel. */
  language: z
    .string()
    .regex(/^[a-z]{3}$/, 'language must be an ISO 639-2 code such as eng')
    .optional(),
  /** Only products missing this requirement, e.g. `name` or `media.normal>=1`. */
  requirement: z.string().min(1).max(120).optional(),
  /** `masters` (default) or `variants`: each variant scored on its own, what it inherits counted as its master's. */
  level: z.enum(['masters', 'variants']).default('masters'),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type IncompleteInput = z.infer<typeof IncompleteQuery>;

const Summary = z.object({
  language: z.string(),
  products: z.number().int(),
  complete: z.number().int(),
  averageScore: z.number().int(),
  missing: z.array(z.object({ requirement: z.string(), products: z.number().int() })),
  variants: z.number().int(),
  incompleteVariants: z.number().int(),
});

export const IncompleteOut = z.object({
  channelId: z.string(),
  name: z.string(),
  /** Per language: masters scored, complete, mean score, how many miss each requirement; variants scored and incomplete. */
  summary: z.array(Summary),
  items: z.array(
    z.object({
      productId: z.string(),
      /** The variant's master (`level=variants`); null for a master. */
      masterId: z.string().nullable(),
      masterSku: z.string().nullable(),
      catalogId: z.string(),
      sku: z.string().nullable(),
      name: z.string().nullable(),
      language: z.string(),
      score: z.number().int(),
      missing: z.array(MissingItem),
    }),
  ),
  nextCursor: z.string().nullable(),
});

/** A channel of the caller's company by id or name (case-insensitive), else 404. */
export async function findChannelByIdOrName(db: Database, caller: Caller, channel: string) {
  const rows = await db
    .select({ id: channels.id, channelId: channels.channelId, name: channels.name })
    .from(channels)
    .where(
      and(
        eq(channels.companyId, caller.companyId),
        sql`(${channels.channelId} = ${channel} OR lower(${channels.name}) = lower(${channel}))`,
      ),
    );
  if (rows.length === 0) throw notFound(`channel "${channel}"`);
  return rows[0]!;
}

/** Cursor `lang:score:key` of the last row of a page (`v:` before it for the variants' list). */
function readCursor(cursor: string | undefined, variants: boolean) {
  if (!cursor) return null;
  const m = /^(v:)?([a-z]{3}):(\d{1,3}):(\d{1,18})$/.exec(cursor);
  if (!m || (m[1] !== undefined) !== variants) throw badRequest('cursor: not a cursor this list gave');
  return { lang: m[2]!, score: Number(m[3]), key: Number(m[4]) };
}

/** Masters from `completeness`, or variants from `variant_completeness` with their master (same index shape). */
function source(variants: boolean) {
  return variants
    ? sql`variant_completeness c CROSS JOIN products p ON p.rowid = c.product_key LEFT JOIN products m ON m.id = p.parent_id`
    : sql`completeness c CROSS JOIN products p ON p.rowid = c.product_key LEFT JOIN products m ON m.id = p.parent_id`;
}

export async function listIncompleteProducts(db: Database, caller: Caller, input: IncompleteInput) {
  const channel = await findChannelByIdOrName(db, caller, input.channel);
  const variants = input.level === 'variants';
  const after = readCursor(input.cursor, variants);
  const rows = await db.all<{
    key: number;
    id: string;
    master_id: string | null;
    master_sku: string | null;
    catalog_id: string;
    sku: string | null;
    name: string | null;
    lang: string;
    score: number;
    missing: string | null;
    default_language: string;
  }>(sql`SELECT c.product_key AS key, p.id, m.id AS master_id, m.sku AS master_sku, p.catalog_id, p.sku,
      coalesce(nullif(p.name, ''), m.name) AS name, c.lang, c.score, c.missing, k.language AS default_language
    FROM ${source(variants)} CROSS JOIN catalogs k ON k.id = p.catalog_id
    WHERE c.channel_key = ${channel.id} AND c.score < 100 AND p.company_id = ${caller.companyId}
      ${caller.productScope ? sql`AND ${productScopeSql(caller.productScope, caller.companyId, sql`p.catalog_id`, sql`coalesce(p.parent_id, p.id)`)}` : sql``}
      ${input.language ? sql`AND c.lang = ${input.language}` : sql``}
      ${input.requirement ? sql`AND EXISTS (SELECT 1 FROM json_each(c.missing) j WHERE j.value = ${input.requirement})` : sql``}
      ${after ? sql`AND (c.lang, c.score, c.product_key) > (${after.lang}, ${after.score}, ${after.key})` : sql``}
    ORDER BY c.lang, c.score, c.product_key
    LIMIT ${input.limit + 1}`);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const overview = await getCompletenessOverview(db, caller);
  return {
    channelId: channel.channelId,
    name: channel.name,
    summary: overview.items
      .filter((i) => i.channelId === channel.channelId && (!input.language || i.language === input.language))
      .map(({ channelId: _c, name: _n, ...rest }) => rest),
    items: page.map((r) => ({
      productId: r.id,
      masterId: r.master_id,
      masterSku: r.master_sku,
      catalogId: r.catalog_id,
      sku: r.sku,
      name: r.name,
      language: r.lang,
      score: r.score,
      missing: (r.missing ? (JSON.parse(r.missing) as string[]) : []).map((l) =>
        missingItem(l, r.lang, r.default_language),
      ),
    })),
    nextCursor:
      rows.length > input.limit && last ? `${variants ? 'v:' : ''}${last.lang}:${last.score}:${last.key}` : null,
  };
}
