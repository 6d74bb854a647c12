import { describe, expect, it } from 'vitest';
import { getCatalog } from '../src/catalog/catalogs';
import { getCategoryTree } from '../src/catalog/categories';
import { getProduct } from '../src/catalog/product-queries';
import {
  asActor,
  db,
  classifyAsMcb,
  makeAttribute,
  makeCatalog,
  makeCategory,
  makeCompany,
  makeDepartment,
  makeProduct,
  makeSession,
} from './helpers/factories';
import { call } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;

async function setValue(
  session: Session,
  elementId: string,
  field: string,
  value: unknown,
  departmentId = session.departmentId,
) {
  return call('POST', '/api/Catalog/SetValue', {
    cookie: session.cookie,
    body: { departmentId, elementId, field, value },
  });
}

async function setup() {
  const session = await makeSession();
  const catalog = await makeCatalog(session);
  const product = await makeProduct(session, catalog.catalogId, { name: 'Original', sku: 'ORIG-1', price: '10.00' });
  return { session, catalog, product };
}

describe('SetValue on built-in fields', () => {
  it.each([
    ['name', 'Neuer Name äöü', 'Neuer Name äöü'],
    ['price', '12,5', '12.5'],
    ['priceQuantity', '10', '10'],
    ['contentUnit', 'C62', 'C62'],
    ['contentPerUnit', '6,50', '6.50'],
    ['quantityMin', '2.5', '2.5'],
    ['quantityInterval', '0.25', '0.25'],
    ['deliveryTimeDays', '0', '0'],
    ['gtin', '4006209123454', '4006209123454'],
    ['unit', 'MTR', 'MTR'],
    ['status', 'discontinued', 'discontinued'],
    ['sku', 'NEW-SKU', 'NEW-SKU'],
  ])('sets product %s from the string %j and returns {elementId, field, value}', async (field, raw, stored) => {
    const { session, product } = await setup();
    const res = await setValue(session, product.productId, field, raw);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ elementId: product.productId, field, value: stored });
    const after = (await getProduct(db(), session, product.productId)) as Record<string, unknown>;
    expect(String(after[field])).toBe(stored);
  });

  it('clears an optional field with an empty string but refuses to clear a required one', async () => {
    const { session, product } = await setup();
    const cleared = await setValue(session, product.productId, 'price', '');
    expect(cleared.json).toEqual({ elementId: product.productId, field: 'price', value: '' });
    expect((await getProduct(db(), session, product.productId)).price).toBeNull();
    const status = await setValue(session, product.productId, 'status', '');
    expect(status.status).toBe(400);
    expect(status.json.error).toBe('status: must not be empty');
    expect((await getProduct(db(), session, product.productId)).status).toBe('active');
  });

  it('sets fields of a catalog, a category and a variant', async () => {
    const { session, catalog, product } = await setup();
    const category = await makeCategory(session, catalog.catalogId);
    const variant = await makeProduct(session, catalog.catalogId, { parentId: product.productId, name: 'v' });
    expect((await setValue(session, catalog.catalogId, 'language', 'eng')).json).toEqual({
      elementId: catalog.catalogId,
      field: 'language',
      value: 'eng',
    });
    expect((await getCatalog(db(), session, catalog.catalogId)).language).toBe('eng');
    expect((await setValue(session, category.categoryId, 'sortOrder', '3')).json.value).toBe('3');
    expect((await getCategoryTree(db(), session, catalog.catalogId)).items[0]!.sortOrder).toBe(3);
    expect((await setValue(session, variant.productId, 'name', 'Variant name')).json.value).toBe('Variant name');
    expect((await getProduct(db(), session, variant.productId)).name).toBe('Variant name');
  });

  it.each([
    [
      'price',
      'twelve',
      'price: "twelve" is not a non-negative amount with at most 12 digits before and 20 after the separator, such as 12.50 or 12,50',
    ],
    [
      'price',
      '-1',
      'price: "-1" is not a non-negative amount with at most 12 digits before and 20 after the separator, such as 12.50 or 12,50',
    ],
    ['priceQuantity', '1.5', 'priceQuantity: "1.5" is not a whole number'],
    ['priceQuantity', '0', 'priceQuantity: must be at least 1'],
    ['contentUnit', 'Stk', 'contentUnit: a UN/ECE Recommendation 20 code such as C62 or MTR'],
    ['contentPerUnit', '0', 'contentPerUnit: must be greater than 0'],
    ['quantityMin', '0,000', 'quantityMin: must be greater than 0'],
    [
      'quantityInterval',
      '-5',
      'quantityInterval: "-5" is not a non-negative amount with at most 12 digits before and 20 after the separator, such as 12.50 or 12,50',
    ],
    ['deliveryTimeDays', 'soon', 'deliveryTimeDays: "soon" is not a number'],
    ['gtin', '4006209123457', 'gtin: GTIN check digit is wrong'],
    ['unit', 'metre', 'unit: at most 3 characters'],
    ['status', 'sold', 'status: "sold" is not one of active, draft, discontinued'],
    ['sku', ' padded', 'sku: no leading or trailing spaces'],
  ])('answers 400 for product %s = %j and changes nothing', async (field, raw, message) => {
    const { session, product } = await setup();
    const before = await getProduct(db(), session, product.productId);
    const res = await setValue(session, product.productId, field, raw);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(message);
    expect(await getProduct(db(), session, product.productId)).toEqual(before);
  });

  it('answers 400 for a catalog language that is not ISO 639-2 and changes nothing', async () => {
    const { session, catalog } = await setup();
    const res = await setValue(session, catalog.catalogId, 'language', 'de');
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('language: an ISO 639-2 code such as deu or eng');
    expect((await getCatalog(db(), session, catalog.catalogId)).language).toBe('deu');
  });

  it('answers 409 for a SKU used by another product of the catalog and changes nothing', async () => {
    const { session, catalog, product } = await setup();
    await makeProduct(session, catalog.catalogId, { sku: 'TAKEN' });
    const res = await setValue(session, product.productId, 'sku', 'TAKEN');
    expect(res.status).toBe(409);
    expect(res.json.error).toBe('sku "TAKEN" is already used in this catalog');
    expect((await getProduct(db(), session, product.productId)).sku).toBe('ORIG-1');
    // Setting a product's own SKU again is no conflict.
    expect((await setValue(session, product.productId, 'sku', 'ORIG-1')).status).toBe(200);
  });
});

describe('SetValue on typed attributes', () => {
  it.each([
    [{ type: 'text' as const }, 'Hello, "world"', 'Hello, "world"'],
    [{ type: 'number' as const, unit: 'V' }, '230 V', '230'],
    [{ type: 'number' as const, unit: 'V' }, '1,5', '1.5'],
    [{ type: 'boolean' as const }, 'TRUE', 'true'],
    [{ type: 'boolean' as const }, '0', 'false'],
    [{ type: 'enum' as const, enumValues: ['red', 'blue'] }, 'blue', 'blue'],
    [{ type: 'range' as const, unit: 'CEL' }, '-25..55', '-25..55'],
  ])('stores %j from %j as %j and shows it on the product', async (definition, raw, stored) => {
    const { session, product } = await setup();
    const attribute = await makeAttribute(session, definition);
    expect(attribute.unit).toBe('unit' in definition ? definition.unit : null);
    const res = await setValue(session, product.productId, attribute.code, raw);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ elementId: product.productId, field: attribute.code, value: stored });
    expect((await getProduct(db(), session, product.productId)).values).toEqual([
      { code: attribute.code, type: definition.type, value: stored, unit: attribute.unit },
    ]);
  });

  it.each([
    [{ type: 'number' as const, unit: 'V' }, '230 A', /is not a number in V$/],
    [{ type: 'number' as const }, '12abc', /is not a number$/],
    [{ type: 'boolean' as const }, 'yes', /is not a boolean \(true or false\)$/],
    [{ type: 'enum' as const, enumValues: ['red', 'blue'] }, 'green', /"green" is not one of red, blue$/],
    [{ type: 'range' as const }, '20..10', /range minimum 20 exceeds maximum 10$/],
    [{ type: 'range' as const }, '10-20', /is not a range; write min..max/],
  ])('answers 400 for %j value %j and keeps the old value', async (definition, raw, message) => {
    const { session, product } = await setup();
    const attribute = await makeAttribute(session, definition);
    const valid = { number: '1', boolean: 'true', enum: 'red', range: '1..2', text: 'x' }[definition.type];
    await setValue(session, product.productId, attribute.code, valid);
    const before = await getProduct(db(), session, product.productId);
    const res = await setValue(session, product.productId, attribute.code, raw);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(message);
    expect(res.json.error.startsWith(`${attribute.code}: `)).toBe(true);
    expect(await getProduct(db(), session, product.productId)).toEqual(before);
  });

  it('removes an attribute value with an empty string', async () => {
    const { session, product } = await setup();
    const attribute = await makeAttribute(session, { type: 'text' });
    await setValue(session, product.productId, attribute.code, 'x');
    const res = await setValue(session, product.productId, attribute.code, '');
    expect(res.json).toEqual({ elementId: product.productId, field: attribute.code, value: '' });
    expect((await getProduct(db(), session, product.productId)).values).toEqual([]);
  });

  it("does not see another company's attribute of the same code", async () => {
    const { session, product } = await setup();
    const theirs = await makeCompany();
    await makeAttribute(theirs, { code: 'secret_code', type: 'text' });
    const res = await setValue(session, product.productId, 'secret_code', 'x');
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(
      'field: "secret_code" is not a field of this product, an attribute, or a feature of its classification',
    );
  });
});

describe('SetValue on classification features', () => {
  it('sets an ETIM feature of the product class, normalised and with the feature unit', async () => {
    const { session, product } = await setup();
    await classifyAsMcb(session, product.productId);
    const voltage = await setValue(session, product.productId, 'EF000008', '230');
    expect(voltage.status).toBe(200);
    expect(voltage.json).toEqual({ elementId: product.productId, field: 'EF000008', value: '230' });
    const characteristic = await setValue(session, product.productId, 'EF000073', 'EV000041');
    expect(characteristic.json.value).toBe('EV000041');
    const temperature = await setValue(session, product.productId, 'EF000001', '-25..55');
    expect(temperature.json.value).toBe('-25..55');
    const detail = await getProduct(db(), session, product.productId);
    expect(detail.classification?.features).toEqual([
      { group: 'ETIM', code: 'EF000001', value: '-25..55', unit: 'CEL' },
      { group: 'ETIM', code: 'EF000008', value: '230', unit: 'VLT' },
      { group: 'ETIM', code: 'EF000073', value: 'EV000041', unit: null },
    ]);
    const cleared = await setValue(session, product.productId, 'EF000008', '');
    expect(cleared.json.value).toBe('');
    expect((await getProduct(db(), session, product.productId)).classification?.features.map((f) => f.code)).toEqual([
      'EF000001',
      'EF000073',
    ]);
  });

  it('answers 400 for a value that does not parse for the feature and keeps the old one', async () => {
    const { session, product } = await setup();
    await classifyAsMcb(session, product.productId, [{ code: 'EF000008', value: '400' }]);
    const before = await getProduct(db(), session, product.productId);
    const notNumber = await setValue(session, product.productId, 'EF000008', 'high');
    expect(notNumber.status).toBe(400);
    expect(notNumber.json.error).toBe('EF000008: "high" is not a number in VLT');
    const notValue = await setValue(session, product.productId, 'EF000073', 'EV999999');
    expect(notValue.status).toBe(400);
    expect(notValue.json.error).toMatch(/^EF000073: "EV999999" is not one of /);
    expect(await getProduct(db(), session, product.productId)).toEqual(before);
  });

  it('answers 400 for a feature that is not part of the class, or without any classification', async () => {
    const { session, catalog, product } = await setup();
    await classifyAsMcb(session, product.productId);
    const foreignFeature = await setValue(session, product.productId, 'EF000040', '10');
    expect(foreignFeature.status).toBe(400);
    expect(foreignFeature.json.error).toBe(
      'field: "EF000040" is not a field of this product, an attribute, or a feature of its classification',
    );
    const unclassified = await makeProduct(session, catalog.catalogId);
    const res = await setValue(session, unclassified.productId, 'EF000008', '230');
    expect(res.status).toBe(400);
    expect((await getProduct(db(), session, unclassified.productId)).classification).toBeNull();
  });
});

describe('SetValue failures', () => {
  it('answers 400 naming the field for an unknown field and changes nothing', async () => {
    const { session, product } = await setup();
    const before = await getProduct(db(), session, product.productId);
    const res = await setValue(session, product.productId, 'colour', 'red');
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(
      'field: "colour" is not a field of this product, an attribute, or a feature of its classification',
    );
    expect(await getProduct(db(), session, product.productId)).toEqual(before);
  });

  it('answers 400 when value is not a string, or a required field is missing', async () => {
    const { session, product } = await setup();
    const numeric = await setValue(session, product.productId, 'price', 12);
    expect(numeric.status).toBe(400);
    expect(numeric.json.error).toBe('value: Invalid input: expected string, received number');
    const missing = await call('POST', '/api/Catalog/SetValue', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, elementId: product.productId, field: 'price' },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('value is required');
    expect((await getProduct(db(), session, product.productId)).price).toBe('10.00');
  });

  it('answers 404 for an element of another company and leaves it unchanged', async () => {
    const { session } = await setup();
    const theirs = await makeCompany();
    const foreign = await makeProduct(theirs, (await makeCatalog(theirs)).catalogId, { name: 'Theirs' });
    const res = await setValue(session, foreign.productId, 'name', 'hijack');
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('element not found');
    expect((await getProduct(db(), asActor(theirs), foreign.productId)).name).toBe('Theirs');
  });

  it('answers 403 for a department of another company and 404 for an element of another department', async () => {
    const { session, product } = await setup();
    const theirs = await makeCompany();
    const forbidden = await setValue(session, product.productId, 'name', 'x', theirs.departmentId);
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error).toBe('departmentId does not name a department of your company');
    const purchasing = await makeDepartment(session.companyId);
    const wrongDepartment = await setValue(session, product.productId, 'name', 'x', purchasing);
    expect(wrongDepartment.status).toBe(404);
    expect(wrongDepartment.json.error).toBe('element not found');
    expect((await getProduct(db(), session, product.productId)).name).toBe('Original');
  });

  it('answers 401 without a cookie and changes nothing', async () => {
    const { session, product } = await setup();
    const res = await call('POST', '/api/Catalog/SetValue', {
      body: { departmentId: session.departmentId, elementId: product.productId, field: 'name', value: 'x' },
    });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('not logged in');
    expect((await getProduct(db(), session, product.productId)).name).toBe('Original');
  });
});
