import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { classificationLinkFeatures, classificationLinks } from '../src/db/schema';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { loadRelease, proficlassFiles } from './helpers/release-fixtures';
import { callTool, openSession } from './mcp-helpers';
import { makeAgentUser, send, tokensFor } from './oauth-helpers';

/** A fresh proficl@ss release (releases are shared by every company: a unique version per test). */
async function loadedRelease() {
  const admin = await makeSession({ role: 'admin' });
  const version = `sv${crypto.randomUUID().slice(0, 8)}`;
  const { job } = await loadRelease(
    { companyId: admin.companyId, departmentId: admin.departmentId, userId: admin.userId },
    { system: 'PROFICLASS', version, files: proficlassFiles() },
  );
  expect(job!.state).toBe('succeeded');
  return `PROFICLASS-${version}`;
}

/** The feature rows stored for a product's classification. */
async function storedFeatures(productId: string) {
  return db()
    .select({
      code: classificationLinkFeatures.code,
      value: classificationLinkFeatures.value,
      unit: classificationLinkFeatures.unit,
    })
    .from(classificationLinkFeatures)
    .innerJoin(classificationLinks, eq(classificationLinks.id, classificationLinkFeatures.linkId))
    .where(and(eq(classificationLinks.elementId, productId)))
    .orderBy(classificationLinkFeatures.code);
}

async function classified(release: string, classCode: string) {
  const s = await makeSession();
  const catalog = await makeCatalog(s.tenant);
  const product = await makeProduct(s.tenant, catalog.catalogId);
  const saved = await call('POST', '/api/Classification/SetElementClassification', {
    cookie: s.cookie,
    body: {
      departmentId: s.departmentId,
      elementId: product.productId,
      classes: [{ group: 'PROFICLASS', code: classCode, release }],
    },
  });
  expect(saved.status, saved.text).toBe(200);
  const setValue = (field: string, value: string) =>
    call('POST', '/api/Catalog/SetValue', {
      cookie: s.cookie,
      body: { departmentId: s.departmentId, elementId: product.productId, field, value },
    });
  return { s, product, setValue };
}

describe('SetValue of a feature of a release class', () => {
  it('writes numbers in the class feature unit, booleans and value codes, typed from the release, with history', async () => {
    const release = await loadedRelease();
    const { s, product, setValue } = await classified(release, 'EAB006c006');
    const height = await setValue('AAA031f001', '12,5 mm');
    expect(height.status, height.text).toBe(200);
    expect(height.json.value).toBe('12.5');
    expect((await setValue('AAA031f001', '14 MMT')).status).toBe(200);
    expect((await setValue('AAA100f001', 'true')).status).toBe(200);
    expect((await setValue('AAA003f001', '3')).status).toBe(200);
    expect(await storedFeatures(product.productId)).toEqual([
      { code: 'AAA003f001', value: '3', unit: null },
      { code: 'AAA031f001', value: '14', unit: 'MMT' },
      { code: 'AAA100f001', value: 'true', unit: null },
    ]);
    const read = await call('GET', `/api/Classification/GetElementClassification?elementId=${product.productId}`, {
      cookie: s.cookie,
    });
    expect(read.json.classification.features).toMatchObject([
      { code: 'AAA003f001', value: '3' },
      { code: 'AAA031f001', value: '14', unit: 'MMT' },
      { code: 'AAA100f001', value: 'true' },
    ]);
    const history = await call('GET', `/api/Catalog/GetHistory?elementId=${product.productId}`, { cookie: s.cookie });
    expect(history.json.items[0].changes).toMatchObject([
      { path: 'classification.feature.PROFICLASS.AAA003f001', after: '3' },
    ]);

    // An empty value removes the feature's value.
    expect((await setValue('AAA100f001', '')).status).toBe(200);
    expect((await storedFeatures(product.productId)).map((f) => f.code)).toEqual(['AAA003f001', 'AAA031f001']);

    const tape = await classified(release, 'EAB005c012');
    expect((await tape.setValue('AAA358f001', 'AAD038v001')).status).toBe(200);
    expect(await storedFeatures(tape.product.productId)).toEqual([
      { code: 'AAA358f001', value: 'AAD038v001', unit: null },
    ]);
  });

  it('answers 400 naming the field for a value the release refuses, and changes nothing', async () => {
    const release = await loadedRelease();
    const { product, setValue } = await classified(release, 'EAB006c006');
    expect((await setValue('AAA031f001', '10')).status).toBe(200);
    const refused: [string, string][] = [
      ['AAA031f001', 'zwölf'],
      ['AAA031f001', '12 kg'],
      ['AAA100f001', 'vielleicht'],
      ['AAA003f001', '1..2'],
    ];
    for (const [field, value] of refused) {
      const reply = await setValue(field, value);
      expect(reply.status, `${field}=${value}`).toBe(400);
      expect(reply.json.error).toMatch(new RegExp(`^${field}`));
    }
    // A feature of another class of the release is no feature of this product's class.
    const other = await setValue('AAA358f001', 'AAD025v001');
    expect(other.status).toBe(400);
    expect(other.json.error).toContain('"AAA358f001" is not a field');
    const tape = await classified(release, 'EAB005c012');
    const code = await tape.setValue('AAA358f001', 'AAD999v001');
    expect(code.status).toBe(400);
    expect(code.json.error).toMatch(/^AAA358f001/);
    expect(await storedFeatures(tape.product.productId)).toEqual([]);
    expect(await storedFeatures(product.productId)).toEqual([{ code: 'AAA031f001', value: '10', unit: 'MMT' }]);
  });

  it('an agent sets a release feature through MCP set_value with the same rules', async () => {
    const release = await loadedRelease();
    const user = await makeAgentUser();
    const catalog = await makeCatalog(user);
    const product = await makeProduct(user, catalog.catalogId);
    const classify = await send('POST', '/api/Classification/SetElementClassification', {
      cookie: user.session,
      json: {
        departmentId: user.departmentId,
        elementId: product.productId,
        classes: [{ group: 'PROFICLASS', code: 'EAB006c006', release }],
      },
    });
    expect(classify.status, classify.text).toBe(200);
    const { access_token: token } = await tokensFor(user, { scope: 'mcp' });
    const { sessionId } = await openSession(token);
    const ok = await callTool(token, sessionId, 'set_value', {
      elementId: product.productId,
      field: 'AAA031f001',
      value: '7 mm',
    });
    expect(ok.isError, JSON.stringify(ok)).toBeFalsy();
    expect(ok.structuredContent).toMatchObject({ value: '7' });
    const bad = await callTool(token, sessionId, 'set_value', {
      elementId: product.productId,
      field: 'AAA031f001',
      value: '7 kg',
    });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('AAA031f001');
    expect(await storedFeatures(product.productId)).toEqual([{ code: 'AAA031f001', value: '7', unit: 'MMT' }]);
  });
});
