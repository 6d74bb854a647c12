import { describe, expect, it } from 'vitest';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { loadRelease, proficlassFiles } from './helpers/release-fixtures';
import { createClassification } from '../src/classification/links';
import { asActor } from './helpers/factories';
import { eq } from 'drizzle-orm';
import { historyVersions } from '../src/db/schema';
import { makeAgentUser, send, tokensFor } from './oauth-helpers';

/** A fresh proficl@ss release (releases are shared by every company: a unique version per test). */
async function loadedRelease() {
  const admin = await makeSession({ role: 'admin' });
  const version = `r${crypto.randomUUID().slice(0, 8)}`;
  const { job } = await loadRelease(
    { companyId: admin.companyId, departmentId: admin.departmentId, userId: admin.userId },
    { system: 'PROFICLASS', version, files: proficlassFiles() },
  );
  expect(job!.state).toBe('succeeded');
  return `PROFICLASS-${version}`;
}

/** UpsertProducts through REST as `s`, into `catalogId`. */
const upsertItems = (s: { cookie: string; departmentId: string }, catalogId: string, items: unknown[]) =>
  call('POST', '/api/Catalog/UpsertProducts', {
    cookie: s.cookie,
    headers: { Origin: 'http://pim.test' },
    body: { departmentId: s.departmentId, catalogId, items },
  });

async function setup() {
  const s = await makeSession();
  const catalog = await makeCatalog(s.tenant);
  const product = await makeProduct(s.tenant, catalog.catalogId);
  const set = (body: Record<string, unknown>) =>
    call('POST', '/api/Classification/SetElementClassification', {
      cookie: s.cookie,
      body: { departmentId: s.departmentId, elementId: product.productId, ...body },
    });
  const get = () =>
    call('GET', `/api/Classification/GetElementClassification?elementId=${product.productId}`, { cookie: s.cookie });
  return { s, catalog, product, set, get };
}

describe('a classification names its release', () => {
  it('stores the release, checks codes and values against it, and returns it on reads', async () => {
    const release = await loadedRelease();
    const { set, get } = await setup();
    const saved = await set({
      classes: [{ group: 'PROFICLASS', code: 'EAB006c006', release }],
      features: [
        { code: 'AAA031f001', value: '12,5 mm' },
        { code: 'AAA003f001', value: '3' },
        { code: 'AAA100f001', value: 'true' },
      ],
    });
    expect(saved.status).toBe(200);
    const expected = {
      name: 'Absperrgitter für Straßen',
      classificationGroups: 4,
      classes: [
        { group: 'PROFICLASS', system: release, code: 'EAB006c006', release, name: 'Absperrgitter für Straßen' },
      ],
      features: [
        { group: 'PROFICLASS', code: 'AAA003f001', name: 'Gewicht', value: '3', unit: null },
        { group: 'PROFICLASS', code: 'AAA031f001', name: 'Höhe', value: '12.5', unit: 'MMT' },
        { group: 'PROFICLASS', code: 'AAA100f001', name: 'Reflektierend', value: 'true', unit: null },
      ],
    };
    expect(saved.json.classification).toMatchObject(expected);
    const read = await get();
    expect(read.json.classification).toMatchObject(expected);

    // What a read returns, a write accepts: the read sent back changes nothing and succeeds.
    const again = await set({ classes: read.json.classification.classes, features: read.json.classification.features });
    expect(again.status).toBe(200);
    expect(again.json.classification).toMatchObject(expected);
  });

  it('answers 400 naming the field for a release not loaded, a class, feature, value or unit the release refuses; nothing changes', async () => {
    const release = await loadedRelease();
    const { set, get } = await setup();
    const ok = await set({
      classes: [{ group: 'PROFICLASS', code: 'EAB005c012', release }],
      features: [{ code: 'AAA358f001', value: 'AAD025v001' }],
    });
    expect(ok.status).toBe(200);
    const before = (await get()).json;

    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { classes: [{ group: 'PROFICLASS', code: 'EAB005c012', release: 'PROFICLASS-0.nope' }] },
        /classes\.release: PROFICLASS-0\.nope is not loaded/,
      ],
      [{ classes: [{ group: 'ETIM', code: 'EAB005c012', release }] }, /classes\.release: .* is not a release of ETIM/],
      [
        { classes: [{ group: 'PROFICLASS', code: 'EAB999c999', release }] },
        /classes: EAB999c999 is not a class of PROFICLASS-/,
      ],
      [
        {
          classes: [{ group: 'PROFICLASS', code: 'EAB005c012', release }],
          features: [{ code: 'AAA031f001', value: '3' }],
        },
        /features: AAA031f001 is not a feature of the classes/,
      ],
      [
        {
          classes: [{ group: 'PROFICLASS', code: 'EAB005c012', release }],
          features: [{ code: 'AAA358f001', value: 'AAD999v001' }],
        },
        /AAA358f001: "AAD999v001" is not one of AAD025v001, AAD038v001/,
      ],
      [
        {
          classes: [{ group: 'PROFICLASS', code: 'EAB006c006', release }],
          features: [{ code: 'AAA031f001', value: '12 cm' }],
        },
        /AAA031f001: "12 cm" is not a number/,
      ],
      [
        {
          classes: [{ group: 'PROFICLASS', code: 'EAB006c006', release }],
          features: [{ code: 'AAA100f001', value: 'ja' }],
        },
        /AAA100f001: "ja" is not a boolean/,
      ],
      [
        { classes: [{ group: 'PROFICLASS', code: 'EAB005c012', release: 'proficlass 7' }] },
        /release is SYSTEM-version/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await set(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error).toMatch(message);
    }
    expect((await get()).json).toEqual(before);
  });

  it('keeps the sample reference data where no release is named', async () => {
    const { set } = await setup();
    const res = await set({
      classes: [{ group: 'ETIM', code: 'EC000042' }],
      features: [{ code: 'EF000008', value: '230' }],
    });
    expect(res.status).toBe(200);
    expect(res.json.classification.classes).toEqual([
      { group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042', release: null, name: 'Miniature circuit breaker (MCB)' },
    ]);
  });

  it('records the release in the history of a product', async () => {
    const release = await loadedRelease();
    const { s, product } = await setup();
    await createClassification(db(), asActor(s.tenant), {
      elementId: product.productId,
      name: 'Band',
      classificationGroups: 4,
      classes: [{ group: 'PROFICLASS', code: 'EAB005c012', release }],
      features: [{ code: 'AAA358f001', value: 'AAD038v001' }],
    });
    const versions = await db().select().from(historyVersions).where(eq(historyVersions.elementId, product.productId));
    expect(versions.map((v) => v.changes).join('\n')).toContain('classification.release.PROFICLASS');
    expect(versions.map((v) => v.changes).join('\n')).toContain(release);
  });

  it('RestoreVersion brings a class of a loaded release back under its release, with its values in its units', async () => {
    const release = await loadedRelease();
    const { s, product, set, get } = await setup();
    const saved = await set({
      classes: [{ group: 'PROFICLASS', code: 'EAB006c006', release }],
      features: [
        { code: 'AAA031f001', value: '12,5 mm' },
        { code: 'AAA100f001', value: 'true' },
      ],
    });
    expect(saved.status, saved.text).toBe(200);
    const asSaved = (await get()).json.classification;
    const other = await set({ classes: [{ group: 'ETIM', code: 'EC000042' }], features: [] });
    expect(other.status, other.text).toBe(200);
    const history = await call('GET', `/api/Catalog/GetHistory?elementId=${product.productId}`, { cookie: s.cookie });
    expect(history.json.items[0].changes).toContainEqual(
      expect.objectContaining({ path: 'classification.release.PROFICLASS', before: release, after: null }),
    );
    const restored = await call('POST', '/api/Catalog/RestoreVersion', {
      cookie: s.cookie,
      body: { departmentId: s.departmentId, elementId: product.productId, versionId: history.json.items[1].versionId },
    });
    expect(restored.status, restored.text).toBe(200);
    const after = (await get()).json.classification;
    expect({ ...after, linkId: undefined }).toEqual({ ...asSaved, linkId: undefined });
    expect(after.classes).toMatchObject([{ group: 'PROFICLASS', system: release, code: 'EAB006c006', release }]);
  });

  it('RestoreVersion brings back the release of a class an upsert wrote', async () => {
    const release = await loadedRelease();
    const s = await makeSession();
    const catalog = await makeCatalog(s.tenant);
    const created = await upsertItems(s, catalog.catalogId, [
      {
        sku: 'GITTER-R',
        name: 'Gitter',
        classification: {
          classes: [{ group: 'PROFICLASS', code: 'EAB006c006', release }],
          features: [{ code: 'AAA031f001', value: '1200 mm' }],
        },
      },
    ]);
    const productId = created.json.items[0].productId;
    const post = (path: string, body: Record<string, unknown>) =>
      call('POST', `/api/${path}`, { cookie: s.cookie, body: { departmentId: s.departmentId, ...body } });
    const classification = async () =>
      (await call('GET', `/api/Classification/GetElementClassification?elementId=${productId}`, { cookie: s.cookie }))
        .json.classification;
    const asCreated = await classification();
    expect(asCreated.classes).toMatchObject([{ release }]);
    const cleared = await post('Classification/SetElementClassification', {
      elementId: productId,
      classes: [{ group: 'ETIM', code: 'EC000042' }],
      features: [],
    });
    expect(cleared.status, cleared.text).toBe(200);
    const history = await call('GET', `/api/Catalog/GetHistory?elementId=${productId}`, { cookie: s.cookie });
    const restored = await post('Catalog/RestoreVersion', {
      elementId: productId,
      versionId: history.json.items.at(-1).versionId,
    });
    expect(restored.status, restored.text).toBe(200);
    const after = await classification();
    expect({ ...after, linkId: undefined }).toEqual({ ...asCreated, linkId: undefined });
  });

  it('UpsertProducts checks a class against its release, stores it, and refuses a release that is not loaded', async () => {
    const release = await loadedRelease();
    const s = await makeSession();
    const catalog = await makeCatalog(s.tenant);
    const res = await upsertItems(s, catalog.catalogId, [
      {
        sku: 'GITTER-1',
        name: 'Gitter',
        classification: {
          classes: [{ group: 'PROFICLASS', code: 'EAB006c006', release }],
          features: [{ code: 'AAA031f001', value: '1200 mm' }],
        },
      },
      {
        sku: 'GITTER-2',
        name: 'Gitter 2',
        classification: { classes: [{ group: 'PROFICLASS', code: 'EAB006c006', release: 'PROFICLASS-0.nope' }] },
      },
      {
        sku: 'GITTER-3',
        name: 'Gitter 3',
        classification: {
          classes: [{ group: 'PROFICLASS', code: 'EAB006c006', release }],
          features: [{ code: 'AAA100f001', value: 'vielleicht' }],
        },
      },
    ]);
    expect(res.status).toBe(200);
    expect(res.json.items.map((i: any) => [i.sku, i.status, i.error ?? null])).toEqual([
      ['GITTER-1', 'created', null],
      ['GITTER-2', 'error', 'classes.release: PROFICLASS-0.nope is not loaded'],
      ['GITTER-3', 'error', 'classification.features.AAA100f001: "vielleicht" is not a boolean (true or false)'],
    ]);
    const productId = res.json.items[0].productId;
    const read = await call('GET', `/api/Classification/GetElementClassification?elementId=${productId}`, {
      cookie: s.cookie,
    });
    expect(read.json.classification.classes).toMatchObject([{ code: 'EAB006c006', release, system: release }]);
    expect(read.json.classification.features).toMatchObject([{ code: 'AAA031f001', value: '1200', unit: 'MMT' }]);
  });
});

describe('an agent classifies against a release through /api/ai', () => {
  it('reads the class features with types, units and allowed values, then creates a classification naming the release', async () => {
    const release = await loadedRelease();
    const user = await makeAgentUser({ aiSwitch: true });
    const token = (await tokensFor(user, { scope: 'api' })).access_token;
    const found = await send('GET', `/api/ai/SearchReleaseClasses?release=${release}&q=absperrgitter`, { token });
    expect(found.status, found.text).toBe(200);
    expect(found.json.items.map((i: any) => i.code)).toEqual(['EAB006c006']);
    const form = await send('GET', `/api/ai/GetReleaseClassFeatures?release=${release}&classCode=EAB006c006`, {
      token,
    });
    expect(form.status, form.text).toBe(200);
    expect(form.json.features.map((f: any) => [f.code, f.type, f.unit?.symbol ?? null, f.mandatory])).toEqual([
      ['AAA003f001', 'N', null, false],
      ['AAA031f001', 'N', 'mm', true],
      ['AAA100f001', 'L', null, false],
    ]);
    const tape = await send('GET', `/api/ai/GetReleaseClassFeatures?release=${release}&classCode=EAB005c012`, {
      token,
    });
    expect(tape.json.features[0]).toMatchObject({
      code: 'AAA358f001',
      type: 'A',
      values: [{ code: 'AAD025v001' }, { code: 'AAD038v001' }],
    });

    const catalog = await makeCatalog(user);
    const product = await makeProduct(user, catalog.catalogId);
    const created = await send('POST', '/api/ai/CreateClassification', {
      token,
      json: {
        elementId: product.productId,
        name: 'Gitter',
        classificationGroups: 4,
        classes: [{ group: 'PROFICLASS', code: 'EAB006c006', release }],
        features: [{ code: 'AAA031f001', value: '1000' }],
      },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.json.classes).toEqual([
      { group: 'PROFICLASS', system: release, code: 'EAB006c006', release, name: 'Absperrgitter für Straßen' },
    ]);
    const missing = await send('POST', '/api/ai/CreateClassification', {
      token,
      json: {
        elementId: (await makeProduct(user, catalog.catalogId)).productId,
        name: 'x',
        classificationGroups: 4,
        classes: [{ group: 'PROFICLASS', code: 'EAB006c006', release: 'PROFICLASS-0.nope' }],
      },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('classes.release: PROFICLASS-0.nope is not loaded');
  });
});
