import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { products, reviewStates } from '../db/schema';
import { badRequest, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { keysetPage, Page } from '../kernel/pagination';
import { findChannel } from './channels';
import { productScopeSql } from '../db/product-scope';
import { idList } from './review-scope';

const ReviewStateFields = {
  state: z.enum(['draft', 'in_review', 'approved']),
  submittedAt: z.string().nullable(),
  submittedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  approvedBy: z.string().nullable(),
  /** The last rejection, kept after the product went back to draft. */
  rejectedAt: z.string().nullable(),
  rejectedBy: z.string().nullable(),
  rejectionComment: z.string().nullable(),
};

export const ReviewStateOut = z.object({
  productId: z.string(),
  /** Every channel with review on, and any other that holds a state of the product. */
  channels: z.array(
    z.object({ channelId: z.string(), name: z.string(), reviewEnabled: z.boolean(), ...ReviewStateFields }),
  ),
});

type StateRow = {
  state: string | null;
  submittedAt: string | null;
  submittedBy: string | null;
  approvedAt: string | null;
  approvedBy: string | null;
  rejectedAt: string | null;
  rejectedBy: string | null;
  rejectionComment: string | null;
};

const stateOut = (r: StateRow) => ({
  state: (r.state ?? 'draft') as 'draft' | 'in_review' | 'approved',
  submittedAt: r.submittedAt,
  submittedBy: r.submittedBy,
  approvedAt: r.approvedAt,
  approvedBy: r.approvedBy,
  rejectedAt: r.rejectedAt,
  rejectedBy: r.rejectedBy,
  rejectionComment: r.rejectionComment,
});

/** GetReviewState: a master's review state per channel (no row: draft). 404 for another company's product. */
export async function getReviewState(db: Database, caller: Caller, productId: string) {
  const product = await db.query.products.findFirst({
    where: and(eq(products.id, productId), eq(products.companyId, caller.companyId)),
    columns: { parentId: true },
  });
  if (!product) throw notFound('product');
  if (product.parentId !== null)
    throw badRequest(`productId: ${productId} is a variant; review is per master product (its parentId)`);
  const rows = await db.all<StateRow & { channelId: string; name: string; reviewEnabled: number }>(sql`
    SELECT ch.channel_id AS channelId, ch.name, ch.review_enabled AS reviewEnabled, rs.state,
      rs.submitted_at AS submittedAt, rs.submitted_by AS submittedBy, rs.approved_at AS approvedAt,
      rs.approved_by AS approvedBy, rs.rejected_at AS rejectedAt, rs.rejected_by AS rejectedBy,
      rs.rejection_comment AS rejectionComment
    FROM channels ch LEFT JOIN review_states rs ON rs.channel_key = ch.id AND rs.product_id = ${productId}
      AND rs.company_id = ${caller.companyId}
    WHERE ch.company_id = ${caller.companyId} AND (ch.review_enabled = 1 OR rs.product_id IS NOT NULL)
    ORDER BY ch.name`);
  return {
    productId,
    channels: rows.map((r) => ({
      channelId: r.channelId,
      name: r.name,
      reviewEnabled: r.reviewEnabled === 1,
      ...stateOut(r),
    })),
  };
}

export const ReviewInboxQuery = z.strictObject({
  channelId: z.uuid(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const Change = z.object({ elementId: z.string(), path: z.string(), before: z.unknown(), after: z.unknown() });

export const ReviewInboxOut = Page(
  z.object({
    productId: z.string(),
    catalogId: z.string(),
    sku: z.string().nullable(),
    name: z.string().nullable(),
    ...ReviewStateFields,
    /**
     * What changed since the last approval, merged per element and path (first before, last
     * after; a path changed back is left out), from the change history. Empty for a product never
     * approved: everything about it is new to the reviewer.
     */
    changes: z.array(Change),
    /** The newest change since the last approval: who made it and through what (null when none). */
    lastChange: z
      .object({
        versionId: z.string(),
        at: z.string(),
        userId: z.string(),
        surface: z.string(),
        clientName: z.string().nullable(),
      })
      .nullable(),
    /** More versions than the inbox reads per page (HISTORY_CAP): the product's GetHistory has them all. */
    changesTruncated: z.boolean(),
  }),
);

/** Versions read per inbox page: a page answers in one read whatever a product's history holds. */
const HISTORY_CAP = 2000;

type VersionRow = {
  masterId: string;
  elementId: string;
  id: string;
  userId: string;
  surface: string;
  clientName: string | null;
  at: string;
  changes: string;
};

/** The change since approval per master: one read of the page's versions newer than each approval. */
async function changesSinceApproval(db: Database, caller: Caller, channelKey: number, ids: string[]) {
  const rows = await db.all<VersionRow>(sql`
    SELECT rs.product_id AS masterId, h.element_id AS elementId, h.id, h.user_id AS userId, h.surface,
      h.client_name AS clientName, h.at, h.changes
    FROM review_states rs JOIN history_versions h ON h.company_id = rs.company_id AND h.id > rs.approved_version
      AND h.element_id IN (SELECT rs.product_id UNION ALL SELECT v.id FROM products v WHERE v.parent_id = rs.product_id)
    WHERE rs.company_id = ${caller.companyId} AND rs.channel_key = ${channelKey} AND rs.approved_version IS NOT NULL
      AND rs.product_id IN ${idList(ids)}
    ORDER BY h.id LIMIT ${HISTORY_CAP + 1}`);
  const truncated = rows.length > HISTORY_CAP;
  const out = new Map<string, { changes: Map<string, z.infer<typeof Change>>; last: VersionRow | null }>();
  for (const row of rows.slice(0, HISTORY_CAP)) {
    const entry = out.get(row.masterId) ?? { changes: new Map(), last: null };
    for (const [path, before, after] of JSON.parse(row.changes) as [string, unknown, unknown][]) {
      const key = `${row.elementId}\n${path}`;
      const seen = entry.changes.get(key);
      entry.changes.set(key, { elementId: row.elementId, path, before: seen ? seen.before : before, after });
    }
    entry.last = row;
    out.set(row.masterId, entry);
  }
  return { byMaster: out, truncated };
}

/** GetReviewInbox: the channel's products in review, by product id (keyset), each with its change since approval. */
export async function getReviewInbox(db: Database, caller: Caller, input: z.infer<typeof ReviewInboxQuery>) {
  const channel = await findChannel(db, caller, input.channelId);
  const page = await keysetPage(
    input,
    { column: reviewStates.productId, order: 'asc' },
    (q) =>
      db
        .select({
          productId: reviewStates.productId,
          catalogId: products.catalogId,
          sku: products.sku,
          name: products.name,
          state: reviewStates.state,
          submittedAt: reviewStates.submittedAt,
          submittedBy: reviewStates.submittedBy,
          approvedAt: reviewStates.approvedAt,
          approvedBy: reviewStates.approvedBy,
          rejectedAt: reviewStates.rejectedAt,
          rejectedBy: reviewStates.rejectedBy,
          rejectionComment: reviewStates.rejectionComment,
        })
        .from(reviewStates)
        .innerJoin(products, eq(products.id, reviewStates.productId))
        .where(
          and(
            eq(reviewStates.companyId, caller.companyId),
            eq(reviewStates.channelKey, channel.id),
            eq(reviewStates.state, 'in_review'),
            eq(products.companyId, caller.companyId),
            // a member limited to catalogs or subtrees sees only theirs in review (docs/teams.md)
            caller.productScope
              ? productScopeSql(caller.productScope, caller.companyId, sql`${products.catalogId}`, sql`${products.id}`)
              : undefined,
            q.after,
          ),
        )
        .orderBy(q.orderBy)
        .limit(q.limit),
    (row) => row.productId,
  );
  const ids = page.items.map((r) => r.productId);
  const { byMaster, truncated } = ids.length
    ? await changesSinceApproval(db, caller, channel.id, ids)
    : { byMaster: new Map(), truncated: false };
  const items = page.items.map((row) => {
    const entry = byMaster.get(row.productId);
    const last: VersionRow | null = entry?.last ?? null;
    const changes = [...(entry?.changes.values() ?? [])].filter(
      (c) => JSON.stringify(c.before) !== JSON.stringify(c.after),
    );
    return {
      productId: row.productId,
      catalogId: row.catalogId,
      sku: row.sku,
      name: row.name,
      ...stateOut(row),
      changes,
      lastChange: last
        ? { versionId: last.id, at: last.at, userId: last.userId, surface: last.surface, clientName: last.clientName }
        : null,
      changesTruncated: truncated,
    };
  });
  return { items, nextCursor: page.nextCursor };
}
