import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { moveCompany } from '../src/db/cell-move';
import { COPY_PLAN, DERIVED_TABLES } from '../src/db/cell-move-plan';
import { setValue } from '../src/catalog/values';
import { encodeJsonCursor } from '../src/kernel/pagination';
import {
  asActor,
  classifyAsMcb,
  db,
  enableLanguages,
  makeAttribute,
  makeCatalog,
  makeCategory,
  makeCompany,
  makeProduct,
  makeUser,
} from './helpers/factories';
import { call, loginAs } from './helpers/http';

type Row = Record<string, unknown>;

async function rows(d1: D1Database, sql: string, ...bind: unknown[]): Promise<Row[]> {
  return (
    await d1
      .prepare(sql)
      .bind(...bind)
      .all<Row>()
  ).results;
}

const PRODUCTS =
  'SELECT id, sku, revision, fingerprint, fingerprint_revision FROM products WHERE company_id = ? ORDER BY id';
const HISTORY = 'SELECT id, element_id, action, changes, at FROM history_versions WHERE company_id = ? ORDER BY id';

/** A company in cell-1 with catalogs, a category, values, translations, a classification and history. */
async function richCompany() {
  const company = await makeCompany();
  const user = await makeUser(company, { aiSwitch: true });
  await enableLanguages(company.companyId, ['eng']);
  const tenant = asActor({ ...company, userId: user.userId });
  const catalog = await makeCatalog(tenant);
  const category = await makeCategory(tenant, catalog.catalogId, { name: 'Schutzschalter' });
  const colour = await makeAttribute(tenant, { type: 'text', code: 'colour' });
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    const product = await makeProduct(tenant, catalog.catalogId, {
      sku: `MOVE-${i}`,
      name: `Leitungsschutzschalter ${i}`,
      categoryIds: [category.categoryId],
      translations: { eng: { name: `Circuit breaker ${i}` } },
    });
    await setValue(db(), tenant, {
      departmentId: company.departmentId,
      elementId: product.productId,
      field: colour.code,
      value: `grau ${i}`,
    });
    ids.push(product.productId);
  }
  await classifyAsMcb(tenant, ids[0]!, [{ code: 'EF000008', value: '230' }]);
  const cookie = await loginAs(user.email);
  return { ...company, user, cookie, catalogId: catalog.catalogId, categoryId: category.categoryId, ids };
}

describe('moving a company to another cell', () => {
  it('keeps every product, fingerprint and history entry, and serves the company from the new cell', async () => {
    const c = await richCompany();
    // One more change through the Worker, so history has web entries too.
    const renamed = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: c.cookie,
      body: {
        productId: c.ids[1],
        departmentId: c.departmentId,
        catalogId: c.catalogId,
        sku: 'MOVE-1',
        name: 'Umbenannt',
      },
    });
    expect(renamed.status, renamed.text).toBe(200);
    const products = await rows(env.DB, PRODUCTS, c.companyId);
    const history = await rows(env.DB, HISTORY, c.companyId);
    const translations = await rows(
      env.DB,
      'SELECT element_id, field, lang, value FROM translations WHERE element_id IN (SELECT id FROM products WHERE company_id = ?) ORDER BY 1, 2, 3',
      c.companyId,
    );
    expect(products).toHaveLength(7);
    expect(history.length).toBeGreaterThan(7);
    expect(products.every((p) => typeof p.fingerprint === 'string' || p.fingerprint === null)).toBe(true);

    const report = await moveCompany(env, c.companyId, 'cell-2', { settleMs: 0 });
    expect(report).toMatchObject({ from: 'cell-1', to: 'cell-2', productsVerified: 7 });
    expect(report.copied.products).toBe(7);
    expect(report.copied.history_versions).toBe(history.length);
    expect(report.deleted.products).toBe(7);

    // Every product with its revision and fingerprint, every history entry and translation, in cell-2 only.
    expect(await rows(env.CELL_2, PRODUCTS, c.companyId)).toEqual(products);
    expect(await rows(env.CELL_2, HISTORY, c.companyId)).toEqual(history);
    expect(
      await rows(
        env.CELL_2,
        'SELECT element_id, field, lang, value FROM translations WHERE element_id IN (SELECT id FROM products WHERE company_id = ?) ORDER BY 1, 2, 3',
        c.companyId,
      ),
    ).toEqual(translations);
    expect(await rows(env.DB, PRODUCTS, c.companyId)).toEqual([]);
    expect(await rows(env.DB, HISTORY, c.companyId)).toEqual([]);
    // The directory keeps the company and its users: the session made before the move still works.
    const stats = await call('GET', '/api/Catalog/GetStats', { cookie: c.cookie });
    expect(stats.json).toEqual({ catalogs: 1, categories: 1, products: 7 });
    const top = await call('GET', `/api/Catalog/GetCategories?catalogId=${c.catalogId}`, { cookie: c.cookie });
    expect(top.json.items).toEqual([expect.objectContaining({ categoryId: c.categoryId, productCount: 7 })]);
    // Derived rows were rebuilt by the new cell's triggers: search finds by name and by English name.
    const found = await call('GET', `/api/Catalog/GetProducts?catalogId=${c.catalogId}&q=Umbenannt`, {
      cookie: c.cookie,
    });
    expect(found.json.items.map((p: { productId: string }) => p.productId)).toEqual([c.ids[1]]);
    const english = await call('GET', `/api/Catalog/GetProducts?catalogId=${c.catalogId}&q=breaker`, {
      cookie: c.cookie,
    });
    // All seven: the renamed one kept its English name.
    expect(english.json.items).toHaveLength(7);
    const classified = await call('GET', `/api/Catalog/GetProduct?productId=${c.ids[0]}`, { cookie: c.cookie });
    expect(classified.status).toBe(200);
    expect(JSON.stringify(classified.json)).toContain('EC000042');
    // And writes land in cell-2.
    const after = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: c.cookie,
      body: {
        productId: c.ids[2],
        departmentId: c.departmentId,
        catalogId: c.catalogId,
        sku: 'MOVE-2',
        name: 'Nach dem Umzug',
      },
    });
    expect(after.status, after.text).toBe(200);
    expect(after.headers.get('x-d1-bookmark')).toMatch(/^cell-2:/);
    const stored = await rows(env.CELL_2, 'SELECT name FROM products WHERE id = ?', c.ids[2]);
    expect(stored).toEqual([{ name: 'Nach dem Umzug' }]);
    const history2 = await call('GET', `/api/Catalog/GetHistory?elementId=${c.ids[1]}`, { cookie: c.cookie });
    expect(history2.status, history2.text).toBe(200);
  });

  it('keeps the changes feed in order across moves: a cursor from before a move resumes without loss or repeat', async () => {
    const c = await richCompany();
    const feed = (query: string) =>
      call('GET', `/api/Changes/GetChanges?include=events&${query}`, { cookie: c.cookie });
    /** Every item after `since`, page by page; the ids and the last cursor. */
    const readAll = async (since?: string) => {
      const ids: string[] = [];
      let cursor = since;
      for (let page = 0; page < 50; page++) {
        const res = await feed(`limit=4${cursor ? `&since=${cursor}` : ''}`);
        expect(res.status, res.text).toBe(200);
        ids.push(...res.json.items.map((i: { changeId?: string; eventId?: string }) => i.changeId ?? i.eventId));
        cursor = res.json.cursor;
        if (!res.json.hasMore) break;
      }
      return { ids, cursor: cursor! };
    };
    // An event between changes (written as the completeness triggers write one), so the move must
    // keep events and changes interleaved in commit order, not copy the events after the history.
    const event = (n: number) =>
      env.DB.prepare(
        "INSERT INTO domain_events (company_id, event_type, order_key, data) VALUES (?, 'completeness.reached', ?, ?) RETURNING id",
      )
        .bind(c.companyId, c.ids[n], JSON.stringify({ productId: c.ids[n], complete: true, scores: {} }))
        .first<{ id: string }>();
    const rename = async (n: number, name: string) => {
      const res = await call('POST', '/api/Catalog/UpdateProduct', {
        cookie: c.cookie,
        body: { productId: c.ids[n], departmentId: c.departmentId, catalogId: c.catalogId, sku: `MOVE-${n}`, name },
      });
      expect(res.status, res.text).toBe(200);
    };
    await event(0);
    await rename(1, 'Eins');
    await event(1);
    await rename(2, 'Zwei');
    const before = await readAll();
    expect(before.ids.length).toBeGreaterThan(10);
    // a poller stopped at the sixth item; the change it stands on is pruned later (retention keeps its feed row)
    const first = await feed('limit=6');
    const held = first.json.cursor as string;
    const heldId = first.json.items.at(-1).changeId as string;
    expect(heldId).toBeTruthy();
    await env.DB.prepare('DELETE FROM history_versions WHERE id = ?').bind(heldId).run();
    const expected = before.ids.filter((id) => id !== heldId);

    const report = await moveCompany(env, c.companyId, 'cell-2', { settleMs: 0 });
    expect(report.copied.domain_events).toBe(2);
    expect(report.deleted.change_feed).toBe(before.ids.length);
    // the same feed in the same order, and the held cursor resumes right after its item
    expect((await readAll()).ids).toEqual(expected);
    expect((await readAll(held)).ids).toEqual(before.ids.slice(6));
    expect((await readAll(before.cursor)).ids).toEqual([]);
    // the old cell keeps no feed row of the company
    expect(await rows(env.DB, 'SELECT seq FROM change_feed WHERE company_id = ?', c.companyId)).toEqual([]);

    // a change in cell-2, then back to cell-1: its old rows are gone, so the copy does not collide
    await rename(3, 'Drei');
    const inCell2 = await readAll(before.cursor);
    expect(inCell2.ids).toHaveLength(1);
    await moveCompany(env, c.companyId, 'cell-1', { settleMs: 0 });
    expect((await readAll(held)).ids).toEqual([...before.ids.slice(6), ...inCell2.ids]);
    expect((await readAll(inCell2.cursor)).ids).toEqual([]);
    expect((await readAll()).ids).toEqual([...expected, ...inCell2.ids]);
    // a cursor naming a change the feed does not hold is refused, not read from elsewhere
    const foreign = encodeJsonCursor({ c: c.companyId, s: 1, v: 'evt_missing' });
    const refused = await feed(`since=${foreign}`);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(/start again without since/);
  });

  it('copies every table with a company_id column, or names it as derived or directory-only', async () => {
    const tables: Row[] = [];
    const names = await rows(
      env.DB,
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'",
    );
    for (const table of names) {
      const columns = await rows(env.DB, 'SELECT name FROM pragma_table_info(?)', table.name);
      if (columns.some((c) => c.name === 'company_id')) tables.push(table);
    }
    expect(tables.length).toBeGreaterThan(10);
    const covered = new Set([
      ...COPY_PLAN.map((s) => s.table),
      ...DERIVED_TABLES,
      'memberships',
      'sessions',
      'company_cells',
      // Single sign-on and SCIM (migration 0054, docs/sso.md): directory tables, like sessions.
      'sso_settings',
      'sso_logins',
      'sso_identities',
      'scim_tokens',
      'scim_groups',
      // logout tokens already acted on (migration 0066), beside the sessions they ended
      'sso_logout_tokens',
      // Roles (migration 0060, docs/teams.md): a membership's scopes and the audit of its role
      // changes live beside the memberships in the directory, written through /api/Account.
      'membership_scopes',
      'member_changes',
      // Invitations and deactivated members (migration 0063, docs/teams.md): beside the memberships.
      'invitations',
      'member_deactivations',
      // Custom roles (migration 0068): read with the membership at every request, beside it in the directory.
      'custom_roles',
    ]);
    expect(tables.map((t) => t.name).filter((name) => !covered.has(name as string))).toEqual([]);
  });
});
