import { describe, expect, it } from 'vitest';
import { makeAttribute, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;
interface Row {
  productId: string;
  sku: string;
  values?: { code: string; type: string; value: string; unit: string | null }[];
}

const get = (session: Session, query: string) =>
  call('GET', `/api/Catalog/GetProducts?${query}`, { cookie: session.cookie });

async function setValue(session: Session, elementId: string, field: string, value: string) {
  const res = await call('POST', '/api/Catalog/SetValue', {
    cookie: session.cookie,
    body: { departmentId: session.tenant.departmentId, elementId, field, value },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

/** A catalog of three products, two attributes with values, and a third attribute with a value nobody asks for. */
async function fixture(session: Session, prefix: string) {
  const voltage = await makeAttribute(session.tenant, { code: `${prefix}_voltage`, type: 'number', unit: 'VLT' });
  const colour = await makeAttribute(session.tenant, { code: `${prefix}_colour`, type: 'text' });
  const other = await makeAttribute(session.tenant, { code: `${prefix}_other`, type: 'text' });
  const catalog = await makeCatalog(session);
  const a = await makeProduct(session.tenant, catalog.catalogId, { sku: 'A-1' });
  const b = await makeProduct(session.tenant, catalog.catalogId, { sku: 'B-2' });
  const c = await makeProduct(session.tenant, catalog.catalogId, { sku: 'C-3' });
  await setValue(session, a.productId, voltage.code, '230');
  await setValue(session, a.productId, colour.code, 'grey');
  await setValue(session, a.productId, other.code, 'not asked for');
  await setValue(session, c.productId, colour.code, 'red');
  return { catalog, voltage, colour, other, a, b, c };
}

describe('GetProducts attributes=', () => {
  it('returns the values of the named attributes with each row, page by page, and nothing else', async () => {
    const session = await makeSession();
    const f = await fixture(session, 'x');
    const rows: Row[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(
        session,
        `catalogId=${f.catalog.catalogId}&attributes=${f.voltage.code},${f.colour.code}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      rows.push(...res.json.items);
      cursor = res.json.nextCursor;
    } while (cursor);
    expect(rows.map((r) => [r.sku, r.values])).toEqual([
      [
        'A-1',
        [
          { code: 'x_colour', type: 'text', value: 'grey', unit: null },
          { code: 'x_voltage', type: 'number', value: '230', unit: 'VLT' },
        ],
      ],
      ['B-2', []],
      ['C-3', [{ code: 'x_colour', type: 'text', value: 'red', unit: null }]],
    ]);
  });

  it('leaves values out without attributes=, and follows any sort', async () => {
    const session = await makeSession();
    const f = await fixture(session, 'y');
    const plain = await get(session, `catalogId=${f.catalog.catalogId}`);
    expect(plain.status).toBe(200);
    expect(plain.json.items.every((r: Row) => !('values' in r))).toBe(true);

    const sorted = await get(
      session,
      `catalogId=${f.catalog.catalogId}&attributes=${f.other.code}&sort=sku&order=desc`,
    );
    expect(sorted.status, JSON.stringify(sorted.json)).toBe(200);
    expect(sorted.json.items.map((r: Row) => [r.sku, r.values])).toEqual([
      ['C-3', []],
      ['B-2', []],
      ['A-1', [{ code: 'y_other', type: 'text', value: 'not asked for', unit: null }]],
    ]);
  });

  it('refuses unknown codes, malformed lists and too many codes with a 400 naming the problem', async () => {
    const session = await makeSession();
    const f = await fixture(session, 'z');
    const base = `catalogId=${f.catalog.catalogId}`;
    const unknown = await get(session, `${base}&attributes=${f.voltage.code},nope`);
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toContain('"nope"');
    expect(unknown.json.error).not.toContain(f.voltage.code);
    const malformed = await get(session, `${base}&attributes=1bad`);
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toContain('attribute codes');
    const empty = await get(session, `${base}&attributes=,`);
    expect(empty.status).toBe(400);
    const many = Array.from({ length: 21 }, (_, i) => `a${i}`).join(',');
    const tooMany = await get(session, `${base}&attributes=${many}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error).toContain('at most 20');
  });

  it("never shows another company's attributes or values", async () => {
    const owner = await makeSession();
    const f = await fixture(owner, 't');
    const stranger = await makeSession();
    // The stranger's company has an attribute with the same code and a product with a value.
    await makeAttribute(stranger.tenant, { code: 't_voltage', type: 'number' });
    const theirs = await makeCatalog(stranger);
    const p = await makeProduct(stranger.tenant, theirs.catalogId, { sku: 'S-1' });
    await setValue(stranger, p.productId, 't_voltage', '400');

    const own = await get(owner, `catalogId=${f.catalog.catalogId}&attributes=t_voltage`);
    expect(own.json.items.map((r: Row) => r.values?.map((v) => v.value))).toEqual([['230'], [], []]);
    const mine = await get(stranger, `catalogId=${theirs.catalogId}&attributes=t_voltage`);
    expect(mine.json.items.map((r: Row) => r.values?.map((v) => v.value))).toEqual([['400']]);
    // A code only the owner's company has is unknown to the stranger.
    const foreign = await get(stranger, `catalogId=${theirs.catalogId}&attributes=t_colour`);
    expect(foreign.status).toBe(400);
    // And the owner's catalog stays out of reach whatever attributes are asked for.
    const other = await get(stranger, `catalogId=${f.catalog.catalogId}&attributes=t_voltage`);
    expect(other.status).toBe(404);
  });
});
