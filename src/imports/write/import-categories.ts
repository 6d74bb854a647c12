import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { chunkForInsert, runBatch, type BatchStatement, type Database } from '../../db/client';
import { newId } from '../../kernel/ids';
import { jsonInsert } from '../../db/json-rows';
import { DRY_RUN_PREFIX } from './import-staging';
import { catalogs, categories, importGroups } from '../../db/schema';
import type { FileGroup } from '../records/bmecat-records';
import { categoryLinkStatements } from '../records/category-links';
import { categoryLinksChanged } from '../../records/category-paths';
import type { Rejection } from '../report/import-report';

/** Category trees are at most this deep (catalog/categories.ts refuses deeper moves). */
const MAX_DEPTH = 12;

interface Scope {
  companyId: string;
  catalogId: string;
  dryRun?: boolean;
  /**
   * A member limited to category subtrees (docs/teams.md): the catalog's categories in them. A
   * category is created only below one of these (it joins them); anything else matches
   * `OUTSIDE_CATEGORY`. Absent: no limit.
   */
  inside?: Set<string>;
}

/**
 * What a scoped import's group or category path becomes when it would create a category outside
 * the member's subtrees: no category. A product placed there is outside (upsert-products.ts
 * judges an id that names nothing as outside), a group there is reported.
 */
export const OUTSIDE_CATEGORY = 'outside-scope';

/** The report's answer to a group a scoped member may not create or change: it names nothing. */
export const OUTSIDE_SCOPE_GROUP =
  'outside your scope: a category you create or change must be in or below a category of your scope';

/** Stages groups read by the validation pass (idempotent: a retried slice writes the same rows). */
export function stageGroups(
  db: Database,
  jobId: string,
  groups: (FileGroup & { position: number })[],
): BatchStatement[] {
  return chunkForInsert(groups, 9).map((chunk) =>
    db
      .insert(importGroups)
      .values(chunk.map((g) => ({ jobId, ...g })))
      .onConflictDoNothing(),
  );
}

/**
 * Finds or creates categories for names under parents: the existing child of that name is
 * reused (so importing the same file twice creates nothing new); a new one is inserted in the
 * order asked, so category ids keep the file's order. Returns the category id per request.
 */
export class CategoryMatcher {
  private readonly children = new Map<string, Map<string, string>>();
  private readonly pending: (typeof categories.$inferInsert)[] = [];
  /** Categories created (or, in a dry run, that would be). */
  created = 0;

  constructor(
    private readonly db: Database,
    private readonly scope: Scope,
  ) {}

  /** Whether the import may change this category (its links, texts, data): always, unless the member is limited to subtrees. */
  mayChange(categoryId: string): boolean {
    return !this.scope.inside || this.scope.inside.has(categoryId);
  }

  private async childrenOf(parentId: string | null): Promise<Map<string, string>> {
    const key = parentId ?? '';
    // below a category the import may not create, nothing exists to match
    if (parentId === OUTSIDE_CATEGORY) return new Map();
    let map = this.children.get(key);
    if (!map) {
      const rows = await this.db
        .select({ id: categories.id, name: categories.name })
        .from(categories)
        .where(
          and(
            eq(categories.catalogId, this.scope.catalogId),
            eq(categories.companyId, this.scope.companyId),
            parentId ? eq(categories.parentId, parentId) : isNull(categories.parentId),
          ),
        )
        .orderBy(asc(categories.id));
      map = new Map();
      for (const row of rows) if (!map.has(row.name)) map.set(row.name, row.id);
      this.children.set(key, map);
    }
    return map;
  }

  async match(
    parentId: string | null,
    name: string,
    extra: { description?: string | null; sortOrder?: number } = {},
  ): Promise<string> {
    const siblings = await this.childrenOf(parentId);
    const found = siblings.get(name);
    if (found) return found;
    const inside = this.scope.inside;
    if (inside && (parentId === null || !inside.has(parentId))) return OUTSIDE_CATEGORY;
    // A dry run creates nothing: its stand-in id still places the products it counts (docs/import.md).
    const id = this.scope.dryRun ? `${DRY_RUN_PREFIX}${newId()}` : newId();
    siblings.set(name, id);
    inside?.add(id);
    this.created++;
    this.pending.push({
      id,
      companyId: this.scope.companyId,
      catalogId: this.scope.catalogId,
      parentId,
      name,
      description: extra.description ?? null,
      sortOrder: extra.sortOrder ?? 0,
    });
    return id;
  }

  /** The inserts (and the catalog's counter) for the categories created since the last call. */
  takeStatements(): BatchStatement[] {
    const rows = this.pending.splice(0);
    if (rows.length === 0) return [];
    // As JSON rows: a drizzle multi-row INSERT also binds every literal column default, so
    // `chunkForInsert(rows, 7)` went over D1's 100 parameters (a 1,000-group file failed).
    return [
      ...jsonInsert(this.db, categories, rows),
      this.db
        .update(catalogs)
        .set({ categoryCount: sql`${catalogs.categoryCount} + ${rows.length}` })
        .where(eq(catalogs.id, this.scope.catalogId)),
    ];
  }

  /** Finds or creates every level of a path such as ["Cables", "Power cables"]; returns the last level's id. */
  async matchPath(path: string[]): Promise<string> {
    let parentId: string | null = null;
    for (const name of path.slice(0, MAX_DEPTH)) {
      parentId = await this.match(parentId, name);
      if (parentId === OUTSIDE_CATEGORY) break;
    }
    return parentId!;
  }
}

/**
 * Turns the staged group system into categories: the root group is the catalog itself; every
 * other group is matched by name under its parent or created, in file order, sweeping again
 * for groups listed before their parent. Groups whose parent never appears (or that form a
 * cycle) hang at the top level. Writes the category id of each group back to the staging
 * rows for the group map, in one transaction with the new categories. Returns counts.
 */
export async function resolveGroups(db: Database, scope: Scope, jobId: string, dryRun: boolean) {
  const inside = scope.inside;
  const staged: (typeof importGroups.$inferSelect)[] = [];
  let after = -1;
  for (;;) {
    const page = await db
      .select()
      .from(importGroups)
      .where(and(eq(importGroups.jobId, jobId), gt(importGroups.position, after)))
      .orderBy(asc(importGroups.position))
      .limit(500);
    staged.push(...page);
    if (page.length < 500) break;
    after = page.at(-1)!.position;
  }
  const matcher = new CategoryMatcher(db, { ...scope, dryRun });
  const idOf = new Map<string, string | null>(staged.filter((g) => g.isRoot).map((g) => [g.groupId, null]));
  const depth = new Map<string, number>();
  const known = new Set(staged.map((g) => g.groupId));
  let open = staged.filter((g) => !g.isRoot);
  let orphans = 0;
  while (open.length > 0) {
    const next: typeof open = [];
    for (const g of open) {
      const parent = g.parentGroupId;
      const top = parent === null || (!known.has(parent) && parent !== g.groupId);
      if (!top && !idOf.has(parent!)) {
        next.push(g);
        continue;
      }
      const parentId = top ? null : idOf.get(parent!)!;
      const level = top || parentId === null ? 1 : (depth.get(parent!) ?? 1) + 1;
      const underParent = level > MAX_DEPTH ? null : parentId;
      idOf.set(
        g.groupId,
        await matcher.match(underParent, g.name, { description: g.description, sortOrder: g.sortOrder }),
      );
      depth.set(g.groupId, underParent === null ? 1 : level);
    }
    if (next.length === open.length) {
      // Nothing resolved in a whole sweep: the rest wait for parents that never come (a cycle).
      orphans += next.length;
      for (const g of next)
        idOf.set(g.groupId, await matcher.match(null, g.name, { description: g.description, sortOrder: g.sortOrder }));
      break;
    }
    open = next;
  }
  // A scoped member's group that would create a category outside the subtrees, or change one
  // there (its links), is rejected: reported once (its position is its key) with the checkpoint.
  const rejections: Rejection[] = inside
    ? staged.flatMap((g) =>
        !g.isRoot && (idOf.get(g.groupId) === OUTSIDE_CATEGORY || (g.links && !matcher.mayChange(idOf.get(g.groupId)!)))
          ? [
              {
                seq: g.position,
                sku: null,
                location: `group ${g.groupId}`,
                reason: OUTSIDE_SCOPE_GROUP,
                code: 'outside_scope',
              },
            ]
          : [],
      )
    : [];
  const created = matcher.takeStatements();
  const pairs = staged.flatMap((g) => (idOf.get(g.groupId) ? [[g.groupId, idOf.get(g.groupId)!]] : []));
  const updates: BatchStatement[] = [];
  for (let i = 0; i < pairs.length; i += 2000)
    updates.push(
      db
        .update(importGroups)
        .set({ categoryId: sql`g.category_id` })
        // LIMIT -1 keeps the list a materialized table SQLite loops over, looking each group up by
        // primary key (flattened, it scanned the list once per staged group).
        .from(
          sql`(SELECT json_extract(value, '$[0]') AS group_id, json_extract(value, '$[1]') AS category_id FROM json_each(${JSON.stringify(pairs.slice(i, i + 2000))}) LIMIT -1) AS g`,
        )
        .where(and(eq(importGroups.jobId, jobId), sql`${importGroups.groupId} = g.group_id`)),
    );
  // The groups' links become links of their categories (not in a dry run: nothing is created).
  const linked = staged.flatMap((g) => {
    const categoryId = idOf.get(g.groupId);
    return g.links && categoryId && matcher.mayChange(categoryId) ? [{ categoryId, links: g.links }] : [];
  });
  const links = dryRun
    ? { statements: [], created: 0, categoriesWithNewLinks: [] }
    : await categoryLinkStatements(db, scope.companyId, linked);
  // Products already placed in a category that gained a link send it with their next sync
  // (docs/shops.md "Category images"): their records are stale from this batch on.
  const stale = links.categoriesWithNewLinks.length
    ? [categoryLinksChanged(db, scope.companyId, links.categoriesWithNewLinks)]
    : [];
  // A dry run stages the stand-in ids too (the products phase places products with them), but creates no category.
  await runBatch(db, [...(dryRun ? [] : created), ...links.statements, ...stale, ...updates]);
  return {
    groups: staged.length,
    orphans,
    categoriesCreated: matcher.created,
    categoryLinks: links.created,
    rejections,
  };
}
