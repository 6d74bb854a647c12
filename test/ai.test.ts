import { describe, expect, it } from 'vitest';
import { asActor, db, makeCatalog, makeCompany, makeProduct } from './helpers/factories';
import { classificationLinks, users } from '../src/db/schema';
import { eq } from 'drizzle-orm';
import { makeAgentUser, ORIGIN, send, tokensFor } from './oauth-helpers';
import { AI_SWITCH_OFF } from '../src/classification/ai-switch';
import type { CreateClassificationInput } from '../src/classification/classification.schemas';
import { createClassification } from '../src/classification/links';

type Agent = Awaited<ReturnType<typeof makeAgentUser>> & { token: string };

async function agent(options: { aiSwitch?: boolean; scope?: string } = {}): Promise<Agent> {
  const user = await makeAgentUser({ aiSwitch: options.aiSwitch ?? true });
  const tokens = await tokensFor(user, { scope: options.scope ?? 'api' });
  return { ...user, token: tokens.access_token };
}

const MCB = {
  name: 'MCB B16 1-pole',
  classificationGroups: 1,
  classes: [{ group: 'ETIM', code: 'EC000042' }],
  features: [
    { code: 'EF000008', value: '230' },
    { code: 'EF000073', value: 'EV000040' },
    { code: 'EF000001', value: '-25..55' },
  ],
};

async function productOf(a: Agent) {
  const catalog = await makeCatalog(a);
  return makeProduct(a, catalog.catalogId);
}

async function create(a: Agent, body: Record<string, unknown>) {
  return send('POST', '/api/ai/CreateClassification', { token: a.token, json: body });
}

describe('/api/ai without a valid token', () => {
  const paths = ['GetStats', 'ListClassificationLinkIds', 'GetClassificationGroups', 'GetClassification?linkId=x'];
  it.each(paths)('answers GET %s with 401 and a discovery challenge', async (path) => {
    const res = await send('GET', `/api/ai/${path}`);
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: 'bearer token required' });
    const challenge = res.headers.get('WWW-Authenticate')!;
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).toContain('scope="api"');
  });

  it('answers the writes with 401 too, and a made-up token with invalid_token', async () => {
    const write = await send('POST', '/api/ai/CreateClassification', { json: MCB });
    expect(write.status).toBe(401);
    const forged = await send('GET', '/api/ai/GetStats', { token: 'user:grant:secret' });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
  });

  it('answers 403 insufficient_scope to a token without the api scope', async () => {
    const a = await agent({ scope: 'mcp' });
    const res = await send('GET', '/api/ai/GetStats', { token: a.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('this operation needs the scope api');
    expect(res.headers.get('WWW-Authenticate')).toContain('error="insufficient_scope"');
    expect(res.headers.get('WWW-Authenticate')).toContain('scope="api"');
  });
});

describe('/api/ai reads', () => {
  it("counts the user's department in GetStats", async () => {
    const a = await agent();
    const catalog = await makeCatalog(a);
    await makeProduct(a, catalog.catalogId);
    await makeProduct(a, catalog.catalogId);
    await makeCatalog(await makeCompany());
    const res = await send('GET', '/api/ai/GetStats', { token: a.token });
    expect(res.json).toEqual({ catalogs: 1, categories: 0, products: 2 });
  });

  it('lists the classification groups bitmask', async () => {
    const a = await agent();
    const res = await send('GET', '/api/ai/GetClassificationGroups', { token: a.token });
    expect(res.json).toEqual({
      items: [
        { value: 1, code: 'ETIM', label: 'ETIM' },
        { value: 2, code: 'ECLASS', label: 'eCl@ss' },
        { value: 4, code: 'PROFICLASS', label: 'proficl@ss' },
      ],
    });
  });

  it('pages through classifications as {linkId, name} and filters by element', async () => {
    const a = await agent();
    const catalog = await makeCatalog(a);
    const links: string[] = [];
    for (const name of ['A', 'B', 'C']) {
      const product = await makeProduct(a, catalog.catalogId);
      const res = await create(a, { ...MCB, elementId: product.productId, name });
      expect(res.status, res.text).toBe(200);
      links.push(res.json.linkId);
    }
    const first = await send('GET', '/api/ai/ListClassificationLinkIds?limit=2', { token: a.token });
    expect(first.json.items).toEqual([
      { linkId: links[0], name: 'A' },
      { linkId: links[1], name: 'B' },
    ]);
    const second = await send('GET', `/api/ai/ListClassificationLinkIds?limit=2&cursor=${first.json.nextCursor}`, {
      token: a.token,
    });
    expect(second.json).toEqual({ items: [{ linkId: links[2], name: 'C' }], nextCursor: null });
    const one = await send(
      'GET',
      `/api/ai/ListClassificationLinkIds?elementId=${(await db().query.classificationLinks.findFirst({ where: eq(classificationLinks.linkId, links[1]!) }))!.elementId}`,
      { token: a.token },
    );
    expect(one.json.items).toEqual([{ linkId: links[1], name: 'B' }]);
    const bad = await send('GET', '/api/ai/ListClassificationLinkIds?limit=0', { token: a.token });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/limit/);
    // a cursor that is not one of this list's (a link id, made up) is a 400, not an empty page
    for (const cursor of [btoa(links[0]!), 'bm90LWEta2V5', '%%%']) {
      const refused = await send('GET', `/api/ai/ListClassificationLinkIds?cursor=${cursor}`, { token: a.token });
      expect(refused.status, cursor).toBe(400);
      expect(refused.json).toMatchObject({ error: 'cursor is not valid' });
    }
    const unknown = await send('GET', '/api/ai/ListClassificationLinkIds?sort=name', { token: a.token });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatch(/sort/);
  });

  it('never lists or shows another company’s classifications', async () => {
    const mine = await agent();
    const theirs = await agent();
    const created = await create(theirs, { ...MCB, elementId: (await productOf(theirs)).productId });
    expect(created.status).toBe(200);
    const list = await send('GET', '/api/ai/ListClassificationLinkIds', { token: mine.token });
    expect(list.json).toEqual({ items: [], nextCursor: null });
    const get = await send('GET', `/api/ai/GetClassification?linkId=${created.json.linkId}`, { token: mine.token });
    expect(get.status).toBe(404);
    expect(get.json.error).toBe('classification not found');
  });

  it('answers 400 for a malformed linkId and 404 for an unknown one', async () => {
    const a = await agent();
    const bad = await send('GET', '/api/ai/GetClassification?linkId=abc', { token: a.token });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/linkId/);
    const missing = await send('GET', `/api/ai/GetClassification?linkId=${crypto.randomUUID()}`, { token: a.token });
    expect(missing.status).toBe(404);
  });
});

describe('/api/ai writes', () => {
  it('creates a classification with checked features and reads it back', async () => {
    const a = await agent();
    const product = await productOf(a);
    const res = await create(a, { ...MCB, elementId: product.productId });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      name: 'MCB B16 1-pole',
      elementId: product.productId,
      classificationGroups: 1,
      classes: [{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042', name: 'Miniature circuit breaker (MCB)' }],
    });
    expect(res.json.features).toEqual([
      { group: 'ETIM', code: 'EF000001', name: 'Ambient temperature', value: '-25..55', unit: 'CEL' },
      { group: 'ETIM', code: 'EF000008', name: 'Rated voltage', value: '230', unit: 'VLT' },
      { group: 'ETIM', code: 'EF000073', name: 'Release characteristic', value: 'EV000040', unit: null },
    ]);
    const read = await send('GET', `/api/ai/GetClassification?linkId=${res.json.linkId}`, { token: a.token });
    expect(read.json).toEqual(res.json);
  });

  it.each([
    ['a bitmask that disagrees with the classes', { classificationGroups: 3 }, /classificationGroups: bitmask 3/],
    [
      'an unknown class',
      { classes: [{ group: 'ETIM', code: 'EC999999' }], features: [] },
      /EC999999 is not a known ETIM class/,
    ],
    ['a feature of another class', { features: [{ code: 'EF000040', value: '10' }] }, /EF000040 is not a feature/],
    [
      'a number feature with text',
      { features: [{ code: 'EF000008', value: 'high' }] },
      /EF000008: "high" is not a number/,
    ],
    [
      'an enum feature with an unknown value code',
      { features: [{ code: 'EF000073', value: 'EV999999' }] },
      /EF000073: "EV999999" is not one of/,
    ],
    [
      'a range that is not two numbers',
      { features: [{ code: 'EF000001', value: '-25' }] },
      /EF000001: "-25" is not a range/,
    ],
    ['a field the contract does not know', { colour: 'red' }, /unknown field\(s\) colour/],
  ])('refuses %s with 400 and stores nothing', async (_what, change, message) => {
    const a = await agent();
    const product = await productOf(a);
    const res = await create(a, { ...MCB, elementId: product.productId, ...change });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(message);
    const list = await send('GET', '/api/ai/ListClassificationLinkIds', { token: a.token });
    expect(list.json.items).toEqual([]);
  });

  it('checks logical features and refuses a second classification of one element', async () => {
    const a = await agent();
    const product = await productOf(a);
    const cable = {
      name: 'Cable',
      elementId: product.productId,
      classificationGroups: 1,
      classes: [{ group: 'ETIM', code: 'EC000057' }],
    };
    const wrong = await create(a, { ...cable, features: [{ code: 'EF000139', value: 'maybe' }] });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toMatch(/EF000139: "maybe" is not a boolean/);
    const right = await create(a, { ...cable, features: [{ code: 'EF000139', value: 'true' }] });
    expect(right.status, right.text).toBe(200);
    expect(right.json.features[0]).toMatchObject({ code: 'EF000139', value: 'true' });
    const again = await create(a, cable);
    expect(again.status).toBe(409);
    expect(again.json.error).toMatch(/already classified/);
  });

  it('answers 404 for an element of another company', async () => {
    const a = await agent();
    const foreign = await makeCompany();
    const catalog = await makeCatalog(foreign);
    const product = await makeProduct(foreign, catalog.catalogId);
    const res = await create(a, { ...MCB, elementId: product.productId });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('element not found');
  });

  it('updates name, classes and features; another company’s linkId is 404', async () => {
    const a = await agent();
    const created = await create(a, { ...MCB, elementId: (await productOf(a)).productId });
    const update = await send('POST', '/api/ai/UpdateClassification', {
      token: a.token,
      json: {
        linkId: created.json.linkId,
        name: 'MCB + eCl@ss',
        classificationGroups: 3,
        classes: [
          { group: 'ETIM', code: 'EC000042' },
          { group: 'ECLASS', code: '27141190' },
        ],
        features: [
          { code: 'EF000133', value: '16' },
          { group: 'ECLASS', code: 'AAA002', value: '16' },
        ],
      },
    });
    expect(update.status, update.text).toBe(200);
    expect(update.json).toMatchObject({ name: 'MCB + eCl@ss', classificationGroups: 3 });
    expect(update.json.classes.map((c: any) => c.code)).toEqual(['27141190', 'EC000042']);
    expect(update.json.features.map((f: any) => `${f.code}=${f.value}`)).toEqual(['AAA002=16', 'EF000133=16']);

    const other = await agent();
    const foreign = await send('POST', '/api/ai/UpdateClassification', {
      token: other.token,
      json: { linkId: created.json.linkId, name: 'hijack' },
    });
    expect(foreign.status).toBe(404);
    const unchanged = await send('GET', `/api/ai/GetClassification?linkId=${created.json.linkId}`, { token: a.token });
    expect(unchanged.json.name).toBe('MCB + eCl@ss');
  });

  it('keeps feature values that still fit when only the name changes', async () => {
    const a = await agent();
    const created = await create(a, { ...MCB, elementId: (await productOf(a)).productId });
    const update = await send('POST', '/api/ai/UpdateClassification', {
      token: a.token,
      json: { linkId: created.json.linkId, name: 'Renamed' },
    });
    expect(update.status, update.text).toBe(200);
    expect(update.json.features).toEqual(created.json.features);
  });

  it('refuses both writes with 403 while the switch is off, and changes nothing', async () => {
    const reader = await agent({ aiSwitch: false });
    const product = await productOf(reader);
    const createRes = await create(reader, { ...MCB, elementId: product.productId });
    expect(createRes.status).toBe(403);
    expect(createRes.json).toEqual({ error: AI_SWITCH_OFF, code: 'forbidden' });
    expect((await send('GET', '/api/ai/ListClassificationLinkIds', { token: reader.token })).json.items).toEqual([]);
    const updateRes = await send('POST', '/api/ai/UpdateClassification', {
      token: reader.token,
      json: { linkId: crypto.randomUUID(), name: 'x' },
    });
    expect(updateRes.status).toBe(403);
    expect(updateRes.json).toEqual({ error: AI_SWITCH_OFF, code: 'forbidden' });
  });

  it('refuses a reader with 403 for the very classification GetClassification returned (not 400)', async () => {
    const reader = await agent({ aiSwitch: false });
    const product = await productOf(reader);
    const { linkId } = await createClassification(db(), asActor(reader), {
      ...(MCB as CreateClassificationInput),
      elementId: product.productId,
    });
    const read = await send('GET', `/api/ai/GetClassification?linkId=${linkId}`, { token: reader.token });
    const changed = { ...read.json, features: read.json.features.map((f: any) => ({ ...f, value: '400' })) };
    for (const [path, json] of [
      ['UpdateClassification', changed],
      ['UpdateClassification', { linkId: 'nonsense', classes: [] }],
      ['CreateClassification', read.json],
      ['DeleteClassification', { linkId }],
    ] as const) {
      const res = await send('POST', `/api/ai/${path}`, { token: reader.token, json });
      expect({ path, status: res.status, json: res.json }).toEqual({
        path,
        status: 403,
        json: { error: AI_SWITCH_OFF, code: 'forbidden' },
      });
    }
    expect((await send('GET', `/api/ai/GetClassification?linkId=${linkId}`, { token: reader.token })).json).toEqual(
      read.json,
    );
  });

  it('takes back what GetClassification returned with one value changed; read-only fields are ignored', async () => {
    const a = await agent();
    const created = await create(a, { ...MCB, elementId: (await productOf(a)).productId });
    const read = await send('GET', `/api/ai/GetClassification?linkId=${created.json.linkId}`, { token: a.token });
    expect(read.json).toEqual(created.json);
    const features = read.json.features.map((f: any) => (f.code === 'EF000008' ? { ...f, value: '400' } : f));
    const update = await send('POST', '/api/ai/UpdateClassification', {
      token: a.token,
      json: { ...read.json, features },
    });
    expect(update.status, update.text).toBe(200);
    expect(update.json).toEqual({ ...read.json, features });
    // Names, units and the element are the read's, not the writer's: ignored, never stored.
    const renamed = await send('POST', '/api/ai/UpdateClassification', {
      token: a.token,
      json: {
        ...update.json,
        elementId: crypto.randomUUID(),
        classes: update.json.classes.map((c: any) => ({ ...c, name: 'made up' })),
        features: update.json.features.map((f: any) => ({ ...f, name: 'made up', unit: null })),
      },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json).toEqual(update.json);
    // Unknown fields are still refused: a typo never passes as "ignored".
    const typo = await send('POST', '/api/ai/UpdateClassification', {
      token: a.token,
      json: { ...update.json, nmae: 'x' },
    });
    expect(typo.status).toBe(400);
    expect(typo.json.error).toBe('unknown field(s) nmae');
  });

  it('deletes a classification explicitly; it is gone and a second delete is 404', async () => {
    const a = await agent();
    const created = await create(a, { ...MCB, elementId: (await productOf(a)).productId });
    const del = () =>
      send('POST', '/api/ai/DeleteClassification', { token: a.token, json: { linkId: created.json.linkId } });
    const first = await del();
    expect(first.json).toEqual({ linkId: created.json.linkId, deleted: true });
    const read = await send('GET', `/api/ai/GetClassification?linkId=${created.json.linkId}`, { token: a.token });
    expect(read.status).toBe(404);
    expect((await del()).status).toBe(404);
  });

  it('applies a switch turned off after the token was issued at the next write', async () => {
    const a = await agent({ aiSwitch: true });
    await db().update(users).set({ aiMayEditClassifications: false }).where(eq(users.id, a.userId));
    const res = await create(a, { ...MCB, elementId: (await productOf(a)).productId });
    expect(res.status).toBe(403);
  });

  it('drops the feature values that no longer fit when the class changes', async () => {
    const a = await agent();
    const created = await create(a, { ...MCB, elementId: (await productOf(a)).productId });
    const update = await send('POST', '/api/ai/UpdateClassification', {
      token: a.token,
      json: { linkId: created.json.linkId, classes: [{ group: 'ETIM', code: 'EC000044' }] },
    });
    expect(update.status, update.text).toBe(200);
    expect(update.json.classes).toEqual([
      {
        group: 'ETIM',
        system: 'ETIM-9.0',
        code: 'EC000044',
        release: null,
        name: 'Residual current circuit breaker (RCCB)',
      },
    ]);
    expect(update.json.features.map((f: any) => f.code)).toEqual(['EF000008']);
  });

  it('answers 415 for a body that is not JSON and 400 for broken JSON', async () => {
    const a = await agent();
    const text = await send('POST', '/api/ai/CreateClassification', { token: a.token, form: { name: 'x' } });
    expect(text.status).toBe(415);
    const broken = await send('POST', '/api/ai/CreateClassification', {
      token: a.token,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error).toEqual(expect.any(String));
  });
});
