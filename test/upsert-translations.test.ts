import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { historyVersions, products, translations } from '../src/db/schema';
import { readTranslations } from '../src/model/translation-store';
import { db, enableLanguages, makeAttribute, makeCatalog, makeSession } from './helpers/factories';
import { expectFingerprintsCurrent } from './helpers/fingerprints';
import { call } from './helpers/http';

async function setup() {
  const session = await makeSession();
  const catalog = await makeCatalog(session.tenant, { language: 'deu', languages: ['eng', 'fra'] });
  const upsert = (items: unknown[]) =>
    call('POST', '/api/Catalog/UpsertProducts', {
      cookie: session.cookie,
      headers: { Origin: 'http://pim.test' },
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId, items },
    });
  return { session, catalog, upsert };
}

const changesOf = async (elementId: string) =>
  (await db().select().from(historyVersions).where(eq(historyVersions.elementId, elementId))).map(
    (v) => JSON.parse(v.changes) as [string, unknown, unknown][],
  );

describe('UpsertProducts with translations', () => {
  it('writes texts per language with the product, the default language to the columns, and counts a translation change', async () => {
    const { session, catalog, upsert } = await setup();
    const colour = await makeAttribute(session.tenant, { type: 'text' });
    await db().run(
      // A localizable text attribute (the flag is set by hl-api's attribute writes; here directly).
      sql`UPDATE attributes SET localizable = 1 WHERE code = ${colour.code} AND company_id = ${session.companyId}`,
    );
    const item = {
      sku: 'LS-B16',
      name: 'Leitungsschutzschalter B16',
      values: { [colour.code]: 'grau' },
      translations: {
        eng: { name: 'Circuit breaker B16', description: 'Type B, 16 A', [`values.${colour.code}`]: 'grey' },
        fra: { name: 'Disjoncteur B16' },
        deu: { keywords: 'LS, Automat' },
      },
      variants: [{ sku: 'LS-B16-3P', name: 'dreipolig', translations: { eng: { name: 'three-pole' } } }],
    };
    const first = await upsert([item]);
    expect(first.status).toBe(200);
    expect(first.json.counts).toEqual({ created: 2, updated: 0, unchanged: 0, error: 0 });
    const id = first.json.items[0].productId as string;
    const variantId = first.json.items[0].variants[0].productId as string;
    const [row] = await db().select().from(products).where(eq(products.id, id));
    expect([row!.name, row!.keywords]).toEqual(['Leitungsschutzschalter B16', 'LS, Automat']);
    const stored = await readTranslations(db(), [id, variantId]);
    expect(stored.get(id)).toEqual({
      eng: { name: 'Circuit breaker B16', description: 'Type B, 16 A', [`values.${colour.code}`]: 'grey' },
      fra: { name: 'Disjoncteur B16' },
    });
    expect(stored.get(variantId)).toEqual({ eng: { name: 'three-pole' } });
    const created = (await changesOf(id))[0]!.map(([path]) => path);
    expect(created).toEqual(expect.arrayContaining(['name', 'name@eng', 'description@eng', 'name@fra']));

    // The same texts again: unchanged, nothing recorded.
    const again = await upsert([item]);
    expect(again.json.counts).toEqual({ created: 0, updated: 0, unchanged: 2, error: 0 });
    expect(await changesOf(id)).toHaveLength(1);

    // One translation changed, one removed: an update of exactly those paths, the rest kept.
    const changed = await upsert([{ sku: 'LS-B16', translations: { eng: { name: 'MCB B16' }, fra: { name: null } } }]);
    expect(changed.json.counts).toEqual({ created: 0, updated: 1, unchanged: 0, error: 0 });
    expect((await readTranslations(db(), [id])).get(id)).toEqual({
      eng: { name: 'MCB B16', description: 'Type B, 16 A', [`values.${colour.code}`]: 'grey' },
    });
    const history = await changesOf(id);
    expect(history[1]!.sort()).toEqual([
      ['name@eng', 'Circuit breaker B16', 'MCB B16'],
      ['name@fra', 'Disjoncteur B16', null],
    ]);
    const [bumped] = await db().select().from(products).where(eq(products.id, id));
    expect(bumped!.revision).toBe(row!.revision + 1);
    await expectFingerprintsCurrent(session.companyId, catalog.catalogId);

    // A value that goes takes its translations with it.
    await upsert([{ sku: 'LS-B16', values: {} }]);
    const left = await db()
      .select()
      .from(translations)
      .where(and(eq(translations.elementId, id), eq(translations.field, `values.${colour.code}`)));
    expect(left).toEqual([]);
  });

  it('refuses a language not enabled, an unknown code and a language-neutral field with a 400 naming the field, writing nothing', async () => {
    const { session, catalog, upsert } = await setup();
    const notEnabled = await upsert([{ sku: 'A', name: 'a', translations: { ita: { name: 'uno' } } }]);
    expect(notEnabled.status).toBe(400);
    expect(notEnabled.json.error).toContain('items[0].translations.ita');
    expect(notEnabled.json.error).toContain('not enabled');
    const unknown = await upsert([
      { sku: 'A', name: 'a', variants: [{ sku: 'A-1', translations: { qqq: { name: 'x' } } }] },
    ]);
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toContain('items[0].variants[0].translations.qqq');
    const neutral = await upsert([{ sku: 'A', name: 'a', translations: { eng: { gtin: '4006381333931' } } }]);
    expect(neutral.status).toBe(400);
    expect(neutral.json.error).toMatch(/gtin|localizable/);
    const rows = await db().select().from(products).where(eq(products.catalogId, catalog.catalogId));
    expect(rows).toEqual([]);
    // Enabled later, the same request is written.
    await enableLanguages(session.companyId, ['ita']);
    const ok = await upsert([{ sku: 'A', name: 'a', translations: { ita: { name: 'uno' } } }]);
    expect(ok.json.counts.created).toBe(1);
  });

  it('answers a translation of an attribute that is not localizable as an item error naming it', async () => {
    const { session, upsert } = await setup();
    const weight = await makeAttribute(session.tenant, { type: 'number', unit: 'kg' });
    const res = await upsert([
      { sku: 'OK', name: 'fine', translations: { eng: { name: 'fine' } } },
      { sku: 'BAD', name: 'bad', translations: { eng: { [`values.${weight.code}`]: 'heavy' } } },
    ]);
    expect(res.status).toBe(200);
    expect(res.json.items.map((i: { status: string; field: string | null }) => [i.status, i.field])).toEqual([
      ['created', null],
      ['error', `translations.eng.values.${weight.code}`],
    ]);
  });
});
