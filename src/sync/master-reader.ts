import { and, asc, eq, gt, isNotNull, isNull, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { products } from '../db/schema';
import { loadProductAggregates } from '../catalog/product-aggregate';
import { fingerprintsOf, refreshFingerprints } from './sync-record';

export interface MasterEntry {
  id: string;
  sku: string;
  fingerprint: string;
}

const PAGE = 500;

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

  constructor(
    private readonly db: Database,
    private readonly companyId: string,
    private readonly catalogId: string,
    private after: string | null,
    private readonly repair: boolean,
  ) {}

  async peek(): Promise<MasterEntry | null> {
    if (this.position < this.page.length) return this.page[this.position]!;
    if (this.exhausted) return null;
    await this.loadPage();
    return this.position < this.page.length ? this.page[this.position]! : null;
  }

  /** Consumes the entry `peek` returned. */
  advance(): void {
    this.position++;
  }

  private async loadPage(): Promise<void> {
    const rows = await this.db
      .select({
        id: products.id,
        sku: products.sku,
        fingerprint: products.fingerprint,
        revision: products.revision,
        fingerprintRevision: products.fingerprintRevision,
      })
      .from(products)
      .where(
        and(
          eq(products.catalogId, this.catalogId),
          isNull(products.parentId),
          this.after === null ? isNotNull(products.sku) : gt(products.sku, this.after),
        ),
      )
      .orderBy(asc(products.sku))
      .limit(PAGE);
    if (rows.length < PAGE) this.exhausted = true;
    const stale = rows.filter((r) => r.fingerprint === null || r.fingerprintRevision < r.revision).map((r) => r.id);
    const fresh = await this.freshFingerprints(stale);
    this.page = rows.map((r) => ({ id: r.id, sku: r.sku!, fingerprint: fresh.get(r.id) ?? r.fingerprint! }));
    this.position = 0;
    if (rows.length > 0) this.after = rows[rows.length - 1]!.sku!;
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

/** Number of masters with a SKU in a catalog (the run's progress total), counted on the index. */
export async function countMasters(db: Database, catalogId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(products)
    .where(and(eq(products.catalogId, catalogId), isNull(products.parentId), isNotNull(products.sku)));
  return row?.n ?? 0;
}
