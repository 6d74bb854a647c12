import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { asActor, db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { addCategory, deleteCategory, moveCategory } from '../src/catalog/categories';
import { deleteProduct, updateProduct } from '../src/catalog/products';
import {
  type CountRow,
  countedCompletenessCounts,
  scopedCatalogCounts,
  scopedCategoryCounts,
  scopedCompletenessCounts,
} from '../src/db/scope-counts';
import { call } from './helpers/http';
import { scopedMember, scopeSetKept } from './helpers/members';
import { slowCatalogCounts, slowCategoryCounts } from './helpers/scope-counts';
import { waitForJob } from './helpers/completeness';
import type { ProductScope } from '../src/kernel/caller';

/**
 * The kept counts of a scoped member (migration 0083, docs/teams.md "Counts") against the
 * counts made from the member's products the slow way (the queries the counters replaced), after
 * every write of a random sequence: products created and deleted, placed in and out of the
 * subtrees, in two categories of one subtree and in two subtrees of one member, variants added
 * and removed, their scores changed (a channel requiring a GTIN and a description), categories
 * added, moved and deleted. Counts, category counts and the completeness counters alike, and
 * today's row of each set's daily table (the scoped trend, migration 0090) equal to its counters.
 */

/** A small deterministic generator (mulberry32): a failing sequence is the same at every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Session = Awaited<ReturnType<typeof makeSession>>;
let session: Session;
const company = () => ({ companyId: session.companyId, departmentId: session.departmentId });
let catalogs: string[];
/** Per catalog, its categories (the tree is built in beforeAll and changed by the sequence). */
const tree = new Map<string, string[]>();

beforeAll(async () => {
  session = await makeSession({ role: 'admin' });
  catalogs = [(await makeCatalog(session.tenant, { name: 'One' })).catalogId];
  catalogs.push((await makeCatalog(session.tenant, { name: 'Two' })).catalogId);
  for (const catalogId of catalogs) {
    const ids: string[] = [];
    // a tree of 8: two top-level categories, each child below one of the categories made before it
    for (let i = 0; i < 8; i++) {
      const parentId = i < 2 ? undefined : ids[(i * 5) % i];
      ids.push((await makeCategory(session.tenant, catalogId, { name: `C${i}`, parentId })).categoryId);
    }
    tree.set(catalogId, ids);
  }
  // a channel whose two requirements give scores of 0, 50 and 100 and missing labels
  const added = await call('POST', '/api/Catalog/AddChannel', {
    cookie: session.cookie,
    body: {
      name: 'Scored',
      languages: ['deu'],
      requirements: [
        { kind: 'field', field: 'gtin' },
        { kind: 'field', field: 'description' },
      ],
    },
  });
  expect(added.status, added.text).toBe(200);
  expect((await waitForJob(session.cookie, added.json.jobId)).state).toBe('succeeded');
}, 60_000);

/** A valid GTIN-13 for n (check digit computed). */
function gtin(n: number): string {
  const body = `40${String(n).padStart(10, '0')}`;
  const sum = [...body].reverse().reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return body + String((10 - (sum % 10)) % 10);
}

const sorted = (rows: CountRow[]) => rows.map((r) => `${r.channelKey}/${r.lang}/${r.item}=${r.n}`).sort();

async function expectKept(scopes: ProductScope[]) {
  for (const scope of scopes) {
    const caller = { companyId: session.companyId, productScope: scope };
    const kept = Object.fromEntries(
      [...((await scopedCatalogCounts(db(), caller)) ?? new Map())].filter(([, n]) => n > 0),
    );
    expect(kept, `catalog counts of ${scope.categoryIds}`).toEqual(
      await slowCatalogCounts(session.companyId, scope.categoryIds),
    );
    for (const catalogId of catalogs) {
      const categoryCounts = Object.fromEntries((await scopedCategoryCounts(db(), caller, catalogId)) ?? new Map());
      expect(categoryCounts, `category counts of ${scope.categoryIds} in ${catalogId}`).toEqual(
        await slowCategoryCounts(session.companyId, scope.categoryIds, catalogId),
      );
    }
    expect(sorted((await scopedCompletenessCounts(db(), caller)) ?? []), `scores of ${scope.categoryIds}`).toEqual(
      sorted(await countedCompletenessCounts(db(), session.companyId, scope)),
    );
    expect(await setDay(scope), `today's trend row of ${scope.categoryIds}`).toEqual(await setDay(scope, 'counters'));
  }
}

/**
 * Per channel and language of a set, today's row of `scope_set_completeness_daily` (migration
 * 0090, kept by differences) or the set's counters it must equal; a channel and language absent
 * from one side reads as zeros.
 */
async function setDay(scope: ProductScope, from: 'day' | 'counters' = 'day') {
  const key = [...new Set(scope.categoryIds)].sort().join(',');
  const set = sql`(SELECT id FROM scope_sets WHERE company_id = ${session.companyId} AND key = ${key})`;
  const rows = await db().all<{ k: string; v: string }>(
    from === 'day'
      ? sql`SELECT channel_key || '/' || lang AS k, scored || '/' || complete || '/' || score_sum AS v
          FROM scope_set_completeness_daily WHERE set_id = ${set} AND day = date('now')`
      : sql`SELECT channel_key || '/' || lang AS k, coalesce(max(CASE WHEN item = '' THEN n END), 0) || '/' ||
          coalesce(max(CASE WHEN item = '#complete' THEN n END), 0) || '/' || coalesce(max(CASE WHEN item = '#score' THEN n END), 0) AS v
          FROM scope_set_completeness WHERE set_id = ${set} AND item IN ('', '#complete', '#score') GROUP BY channel_key, lang`,
  );
  return Object.fromEntries(rows.filter((r) => r.v !== '0/0/0').map((r) => [r.k, r.v]));
}

describe('the kept counts of scoped members', () => {
  it('equal the counts made from the products after every write of a random sequence', async () => {
    const [one, two] = catalogs.map((c) => tree.get(c)!);
    const scopes: ProductScope[] = [
      // one subtree
      { catalogIds: [], categoryIds: [one![0]!] },
      // two subtrees of one member, in two catalogs, and one nested in another
      { catalogIds: [], categoryIds: [one![0]!, one![1]!, two![2]!] },
      { catalogIds: [], categoryIds: [one![2]!, one![1]!] },
      { catalogIds: [], categoryIds: [two![0]!, two![3]!] },
    ];
    // members holding these scopes: a set no member names is deleted when another is made
    for (const { categoryIds } of scopes)
      await scopedMember(session.cookie, company(), 'editor', { categoryIds: [...categoryIds] });
    const actor = asActor(session.tenant);
    const deps = { db: db(), files: env.FILES };
    const next = random(33);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
    const masters: { id: string; catalogId: string }[] = [];
    const variants: string[] = [];
    let made = 0;
    /** No GTIN, no description, or both: scores 0, 50 or 100 and their missing labels. */
    const someFields = () => ({
      gtin: next() < 0.5 ? gtin(++made) : null,
      description: next() < 0.5 ? 'Described' : null,
    });
    const somePlaces = (catalogId: string) => {
      const categories = tree.get(catalogId)!;
      const n = Math.floor(next() * 4);
      return [...new Set(Array.from({ length: n }, () => pick(categories)))];
    };

    // products made before the first count: the set's first count makes its counters
    for (let i = 0; i < 12; i++) {
      const catalogId = pick(catalogs);
      const product = await makeProduct(session.tenant, catalogId, {
        categoryIds: somePlaces(catalogId),
        ...someFields(),
      });
      masters.push({ id: product.productId, catalogId });
    }
    await expectKept(scopes.slice(0, 3));

    const steps: Record<string, () => Promise<unknown>> = {
      async create() {
        const catalogId = pick(catalogs);
        const product = await makeProduct(session.tenant, catalogId, {
          categoryIds: somePlaces(catalogId),
          ...someFields(),
        });
        masters.push({ id: product.productId, catalogId });
      },
      async variant() {
        const master = pick(masters);
        variants.push(
          (await makeProduct(session.tenant, master.catalogId, { parentId: master.id, ...someFields() })).productId,
        );
      },
      async rescore() {
        const master = pick(masters);
        await updateProduct(db(), actor, {
          departmentId: session.departmentId,
          catalogId: master.catalogId,
          productId: master.id,
          ...someFields(),
        });
      },
      async place() {
        const master = pick(masters);
        await updateProduct(db(), actor, {
          departmentId: session.departmentId,
          catalogId: master.catalogId,
          productId: master.id,
          categoryIds: somePlaces(master.catalogId),
        });
      },
      async deleteMaster() {
        const master = masters.splice(Math.floor(next() * masters.length), 1)[0]!;
        await deleteProduct(deps, actor, { departmentId: session.departmentId, productId: master.id });
      },
      async deleteVariant() {
        if (!variants.length) return;
        const id = variants.splice(Math.floor(next() * variants.length), 1)[0]!;
        // a variant of a master deleted meanwhile went with it
        await deleteProduct(deps, actor, { departmentId: session.departmentId, productId: id }).catch(() => null);
      },
      async moveCategory() {
        const catalogId = pick(catalogs);
        const categories = tree.get(catalogId)!;
        const parentId = next() < 0.2 ? null : pick(categories);
        // a move below itself or too deep is refused (400) and changes nothing
        await moveCategory(db(), actor, {
          departmentId: session.departmentId,
          categoryId: pick(categories),
          parentId,
        }).catch(() => null);
      },
      async addCategory() {
        const catalogId = pick(catalogs);
        const categories = tree.get(catalogId)!;
        const made = await addCategory(db(), actor, {
          departmentId: session.departmentId,
          catalogId,
          name: `New ${categories.length}`,
          parentId: pick(categories),
        }).catch(() => null);
        if (made) categories.push(made.categoryId);
      },
      async deleteCategory() {
        const catalogId = pick(catalogs);
        const categories = tree.get(catalogId)!;
        // never a scope's root: a root deleted covers nothing from then on (checked below)
        const roots = new Set(scopes.flatMap((s) => s.categoryIds));
        const candidates = categories.slice(8).filter((id) => !roots.has(id));
        if (!candidates.length) return;
        const id = pick(candidates);
        await deleteCategory(deps, actor, { departmentId: session.departmentId, categoryId: id });
        const left = await db().all<{ id: string }>(sql`SELECT id FROM categories WHERE catalog_id = ${catalogId}`);
        tree.set(
          catalogId,
          categories.filter((c) => left.some((r) => r.id === c)),
        );
      },
    };
    const weights: [string, number][] = [
      ['create', 4],
      ['variant', 3],
      ['place', 5],
      ['rescore', 2],
      ['deleteMaster', 1],
      ['deleteVariant', 1],
      ['moveCategory', 2],
      ['addCategory', 1],
      ['deleteCategory', 1],
    ];
    const total = weights.reduce((n, [, w]) => n + w, 0);
    for (let i = 0; i < 60; i++) {
      let r = next() * total;
      const [name] = weights.find(([, w]) => (r -= w) < 0) ?? weights[0]!;
      await steps[name]!();
      // the fourth scope is counted first halfway: made from the products as they are then
      await expectKept(i < 30 ? scopes.slice(0, 3) : scopes);
    }
  }, 300_000);

  it('count a product placed twice in one subtree, and in two subtrees of one member, once', async () => {
    const [one] = catalogs.map((c) => tree.get(c)!);
    const catalogId = catalogs[0]!;
    const [a, b] = [one![0]!, one![1]!];
    const below = (await makeCategory(session.tenant, catalogId, { name: 'Below A', parentId: a })).categoryId;
    const caller = { companyId: session.companyId, productScope: { catalogIds: [], categoryIds: [a, b] } };
    const before = (await scopedCatalogCounts(db(), caller))!.get(catalogId) ?? 0;
    const placedBelow = (await scopedCategoryCounts(db(), caller, catalogId))!.get(below) ?? 0;
    const made = await makeProduct(session.tenant, catalogId, { categoryIds: [a, below, b] });
    await makeProduct(session.tenant, catalogId, { parentId: made.productId });
    expect((await scopedCatalogCounts(db(), caller))!.get(catalogId)).toBe(before + 2);
    expect((await scopedCategoryCounts(db(), caller, catalogId))!.get(below)).toBe(placedBelow + 1);
    await updateProduct(db(), asActor(session.tenant), {
      departmentId: session.departmentId,
      catalogId,
      productId: made.productId,
      categoryIds: [below],
    });
    expect((await scopedCatalogCounts(db(), caller))!.get(catalogId)).toBe(before + 2);
    await updateProduct(db(), asActor(session.tenant), {
      departmentId: session.departmentId,
      catalogId,
      productId: made.productId,
      categoryIds: [],
    });
    expect((await scopedCatalogCounts(db(), caller))!.get(catalogId) ?? 0).toBe(before);
    expect((await scopedCategoryCounts(db(), caller, catalogId))!.get(below) ?? 0).toBe(placedBelow);
  });
  it('delete a set no member names when a new one is made, and make it again when counted', async () => {
    const [one] = catalogs.map((c) => tree.get(c)!);
    const sets = async () =>
      (await db().all<{ key: string }>(sql`SELECT key FROM scope_sets WHERE company_id = ${session.companyId}`)).map(
        (r) => r.key,
      );
    const unnamed = { catalogIds: [], categoryIds: [one![3]!] };
    const caller = (scope: ProductScope) => ({ companyId: session.companyId, productScope: scope });
    await scopedCatalogCounts(db(), caller(unnamed));
    expect(await sets()).toContain(one![3]);
    // a member's new scope makes its set; the unnamed one goes, the members' stay
    await scopedMember(session.cookie, company(), 'editor', { categoryIds: [one![4]!] });
    await scopedCatalogCounts(db(), caller({ catalogIds: [], categoryIds: [one![4]!] }));
    const kept = await sets();
    expect(kept).toContain(one![4]);
    expect(kept).toContain(one![0]);
    expect(kept).not.toContain(one![3]);
    // counted again, it is made again and exact
    const counts = Object.fromEntries(
      [...((await scopedCatalogCounts(db(), caller(unnamed))) ?? new Map())].filter(([, n]) => n > 0),
    );
    expect(counts).toEqual(await slowCatalogCounts(session.companyId, unnamed.categoryIds));
  });

  it("counts a new member's scope set in the background of SetMemberRole, before the member asks", async () => {
    const [, two] = catalogs.map((c) => tree.get(c)!);
    const key = [two![6]!, two![7]!].sort().join(',');
    const built = () => scopeSetKept(session.companyId, [two![6]!, two![7]!]);
    expect(await built()).toBe(false);
    await scopedMember(session.cookie, company(), 'editor', { categoryIds: [two![7]!, two![6]!] });
    // after SetMemberRole's answer, not in the member's request: no count was asked for
    await expect.poll(built, { timeout: 5000, interval: 50 }).toBe(true);
    const [counted] = await db().all<{ n: number }>(
      sql`SELECT coalesce(sum(masters + variants), 0) AS n FROM scope_set_counts WHERE set_id = (SELECT id FROM scope_sets WHERE company_id = ${session.companyId} AND key = ${key})`,
    );
    const slow = await slowCatalogCounts(session.companyId, [two![6]!, two![7]!]);
    expect(Number(counted!.n)).toBe(Object.values(slow).reduce((a, b) => a + b, 0));
  });
});
