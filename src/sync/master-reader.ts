import { and, eq, isNotNull, isNull, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { products } from '../db/schema';
import { inSubtreesSql } from '../db/product-scope';
import { loadProductAggregates } from '../model/product-aggregate';
import { fingerprintsOf, refreshFingerprints } from '../records/sync-record';
import {
  fingerprintWithout,
  leftOutVariantsColumn,
  missingColumn,
  parseLeftOutVariants,
  type LeftOutVariant,
  type SyncChannel,
} from './sync-complete';

interface PageRow {
  id: string;
  sku: string;
  fingerprint: string | null;
  revision: number;
  fingerprintRevision: number;
  missing: string | null;
  variants: string | null;
}

export interface MasterEntry {
  id: string;
  sku: string;
  fingerprint: string;
  /** With onlyComplete: what the master lacks for the channel (`label (lang)`, tab-separated); null when complete. */
  missing?: string | null;
  /** With onlyComplete: the master's variants incomplete for the channel, left out of its record (the fingerprint says so). */
  leftOut?: LeftOutVariant[];
}

/** Masters per keyset page; the next page is read while the join works through this one. */
const PAGE = 1000;

/**
 * The PIM side of the merge-join: a catalog's master products with a SKU, in SKU byte order
 * (SQLite's BINARY collation, the order of the connector's inventory), read by keyset pages
 * over `products_catalog_sku_uq` (migration 0008 dropped a masters-only copy of it). Stale fingerprints (`fingerprint_revision <
 * revision`, left by a crash between a write and its refresh) are repaired before anyone
 * compares them; in a dry run they are computed without being stored.
 */
export class MasterReader {
  private page: MasterEntry[] = [];
  private position = 0;
  private exhausted = false;
  /** The following page, requested as soon as the current one arrives (at most one ahead). */
  private next: Promise<MasterEntry[]> | null = null;

  constructor(
    private readonly db: Database,
    private readonly companyId: string,
    private readonly catalogId: string,
    private after: string | null,
    private readonly repair: boolean,
    private readonly pageSize = PAGE,
    /** With onlyComplete: the channel whose scores mark a master `missing`. */
    private readonly channel: SyncChannel | null = null,
    /** A run limited to subtrees: their roots (only the masters placed in them are read). */
    private readonly subtree: readonly string[] | null = null,
  ) {}

  async peek(): Promise<MasterEntry | null> {
    if (this.position < this.page.length) return this.page[this.position]!;
    // `exhausted` means no page is left to request; the prefetched one may still be unread.
    if (this.exhausted && !this.next) return null;
    const loading = this.next ?? this.loadPage();
    this.next = null;
    this.page = await loading;
    this.position = 0;
    if (!this.exhausted) {
      this.next = this.loadPage();
      // Awaited by the next peek; until then a failure must not surface as an unhandled rejection.
      this.next.catch(() => undefined);
    }
    return this.position < this.page.length ? this.page[this.position]! : null;
  }

  /** Consumes the entry `peek` returned. */
  advance(): void {
    this.position++;
  }

  /**
   * Reads the page after `after`; `after` moves past it once its rows arrive. Plain SQL rather
   * than drizzle's select builder: building and mapping the query cost more CPU than reading a
   * page of 1000 (bench:sync --profile, no-op run); the plan is the same keyset on
   * `products_catalog_sku_uq`.
   */
  private loadPage(): Promise<MasterEntry[]> {
    const after = this.after;
    const query = this.db.all<PageRow>(sql`
      SELECT id, sku, fingerprint, revision, fingerprint_revision AS fingerprintRevision,
        ${missingColumn(this.channel)} AS missing, ${leftOutVariantsColumn(this.channel)} AS variants
      FROM products
      WHERE catalog_id = ${this.catalogId} AND parent_id IS NULL AND ${after === null ? sql`sku IS NOT NULL` : sql`sku > ${after}`}
        ${this.subtree ? sql`AND ${inSubtrees(this.companyId, this.subtree)}` : sql``}
      ORDER BY sku LIMIT ${this.pageSize}`);
    return query.then(async (rows) => {
      if (rows.length < this.pageSize) this.exhausted = true;
      if (rows.length > 0) this.after = rows[rows.length - 1]!.sku;
      // An incomplete master is not compared (onlyComplete): its fingerprint is not repaired either.
      const stale = rows
        .filter((r) => !r.missing && (r.fingerprint === null || r.fingerprintRevision < r.revision))
        .map((r) => r.id);
      const fresh = await this.freshFingerprints(stale);
      return Promise.all(
        rows.map(async (r) => {
          const leftOut = r.missing ? undefined : parseLeftOutVariants(r.variants);
          const fingerprint = fresh.get(r.id) ?? r.fingerprint ?? '';
          return {
            id: r.id,
            sku: r.sku,
            fingerprint: await fingerprintWithout(fingerprint, leftOut),
            missing: r.missing,
            leftOut,
          };
        }),
      );
    });
  }

  private async freshFingerprints(ids: string[]): Promise<Map<string, string>> {
    const fresh = new Map<string, string>();
    if (ids.length === 0) return fresh;
    if (this.repair) {
      await refreshFingerprints(this.db, this.companyId, ids);
      for (let i = 0; i < ids.length; i += 90) {
        const rows = await this.db
          .select({ id: products.id, fingerprint: products.fingerprint })
          .from(products)
          .where(
            and(
              eq(products.companyId, this.companyId),
              inArray(products.id, ids.slice(i, i + 90)),
              eq(products.fingerprintRevision, products.revision),
            ),
          );
        for (const row of rows) if (row.fingerprint) fresh.set(row.id, row.fingerprint);
      }
    }
    // Dry runs (and a refresh that lost a race to a newer write) compute the hash in memory.
    const missing = ids.filter((id) => !fresh.has(id));
    for (let i = 0; i < missing.length; i += 90) {
      const aggregates = await loadProductAggregates(this.db, this.companyId, missing.slice(i, i + 90));
      for (const [id, fingerprint] of await fingerprintsOf(this.db, this.companyId, aggregates))
        fresh.set(id, fingerprint);
    }
    return fresh;
  }
}

/**
 * The master is placed in one of the subtrees: one range of the master's placements per master
 * the keyset passes (db/product-scope.ts). The keyset still walks the catalog's SKUs: a subtree
 * run reads the whole catalog's index, not only its masters.
 */
function inSubtrees(companyId: string, subtree: readonly string[]) {
  return inSubtreesSql(companyId, subtree, sql`products.id`);
}

/** Number of masters with a SKU in a catalog, or in its subtrees (the run's progress total), counted on the index. */
export async function countMasters(
  db: Database,
  catalogId: string,
  subtree: { companyId: string; categoryIds: readonly string[] } | null = null,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(products)
    .where(
      and(
        eq(products.catalogId, catalogId),
        isNull(products.parentId),
        isNotNull(products.sku),
        subtree ? inSubtrees(subtree.companyId, subtree.categoryIds) : undefined,
      ),
    );
  return row?.n ?? 0;
}
