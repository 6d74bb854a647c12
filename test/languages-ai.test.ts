import { describe, expect, it } from 'vitest';
import { readTranslations } from '../src/model/translation-store';
import { db, makeCatalog, makeProduct } from './helpers/factories';
import { makeAgentUser, send, tokensFor } from './oauth-helpers';

async function agent() {
  const user = await makeAgentUser();
  const { access_token: token } = await tokensFor(user, { scope: 'api', clientName: 'Translator API' });
  return { ...user, token };
}

describe('Agents read and write per language (/api/ai)', () => {
  it('lists the products missing English, writes English texts, and history names the agent and its client', async () => {
    const a = await agent();
    const catalog = await makeCatalog(a, { languages: ['eng', 'fra'] });
    const one = await makeProduct(a, catalog.catalogId, { sku: 'AI-1', name: 'Kabel' });
    const two = await makeProduct(a, catalog.catalogId, { sku: 'AI-2', name: 'Schalter', description: 'Ein Schalter' });
    await makeProduct(a, catalog.catalogId, { sku: 'AI-3', name: 'Dose', translations: { eng: { name: 'Box' } } });

    const missing = await send(
      'GET',
      `/api/ai/GetProducts?catalogId=${catalog.catalogId}&missingTranslation=eng&language=eng`,
      { token: a.token },
    );
    expect(missing.status, missing.text).toBe(200);
    expect(
      missing.json.items.map(
        (p: { sku: string; name: string | null; language: string; missingTranslations: string[] }) => [
          p.sku,
          p.name,
          p.language,
          p.missingTranslations,
        ],
      ),
    ).toEqual([
      ['AI-1', null, 'eng', ['name']],
      ['AI-2', null, 'eng', ['name', 'description']],
    ]);

    // departmentId may be left out (the agent's department), as MCP's tools allow.
    const set = await send('POST', '/api/ai/SetValue', {
      token: a.token,
      json: { elementId: one.productId, field: 'name', value: 'Cable', language: 'eng' },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.json).toMatchObject({ value: 'Cable', language: 'eng' });
    const update = await send('POST', '/api/ai/UpdateProduct', {
      token: a.token,
      json: {
        departmentId: a.departmentId,
        catalogId: catalog.catalogId,
        productId: two.productId,
        translations: { eng: { name: 'Switch', description: 'A switch' }, fra: { name: 'Interrupteur' } },
      },
    });
    expect(update.status, update.text).toBe(200);

    const after = await send('GET', `/api/ai/GetProducts?catalogId=${catalog.catalogId}&missingTranslation=eng`, {
      token: a.token,
    });
    expect(after.json.items).toEqual([]);
    const english = await send('GET', `/api/ai/GetProduct?productId=${two.productId}&language=eng`, { token: a.token });
    expect(english.json).toMatchObject({
      name: 'Switch',
      description: 'A switch',
      language: 'eng',
      missingTranslations: [],
    });
    const all = await send('GET', `/api/ai/GetProduct?productId=${two.productId}&languages=all`, { token: a.token });
    expect(all.json).toMatchObject({
      name: 'Schalter',
      language: 'deu',
      translations: { eng: { name: 'Switch', description: 'A switch' }, fra: { name: 'Interrupteur' } },
    });
    // The German column is untouched by the English writes.
    const german = await send('GET', `/api/ai/GetProduct?productId=${one.productId}`, { token: a.token });
    expect(german.json).toMatchObject({ name: 'Kabel', language: 'deu' });

    const history = await send('GET', `/api/ai/GetHistory?elementId=${two.productId}`, { token: a.token });
    const [version] = history.json.items;
    expect(version).toMatchObject({ surface: 'agent', clientName: 'Translator API', user: { userId: a.userId } });
    expect(version.changes.map((c: { path: string }) => c.path).sort()).toEqual([
      'description@eng',
      'name@eng',
      'name@fra',
    ]);
    const first = await send('GET', `/api/ai/GetHistory?elementId=${one.productId}`, { token: a.token });
    expect(first.json.items[0]).toMatchObject({ surface: 'agent', clientName: 'Translator API' });
    expect(first.json.items[0].changes).toEqual([expect.objectContaining({ path: 'name@eng', after: 'Cable' })]);
  });

  it('answers 400 naming the field for a language not enabled or a language-neutral translation, writing nothing', async () => {
    const a = await agent();
    const catalog = await makeCatalog(a, { languages: ['eng'] });
    const p = await makeProduct(a, catalog.catalogId, { sku: 'AI-X', name: 'Kabel' });
    const italian = await send('POST', '/api/ai/SetValue', {
      token: a.token,
      json: { elementId: p.productId, field: 'name', value: 'Cavo', language: 'ita' },
    });
    expect(italian.status).toBe(400);
    expect(italian.json.error).toContain('language: Italian (ita) is not enabled');
    const neutral = await send('POST', '/api/ai/UpdateProduct', {
      token: a.token,
      json: {
        catalogId: catalog.catalogId,
        productId: p.productId,
        translations: { eng: { name: 'Cable', gtin: '4006381333931' } },
      },
    });
    expect(neutral.status).toBe(400);
    expect(neutral.json.error).toContain('translations.eng.gtin');
    expect((await readTranslations(db(), [p.productId])).get(p.productId)).toBeUndefined();
    const unknown = await send('GET', `/api/ai/GetProduct?productId=${p.productId}&language=xyz`, { token: a.token });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toContain('language');
  });

  it('keeps the product operations behind the agent token: none is 401, scope mcp only is 403', async () => {
    const user = await makeAgentUser();
    const { access_token: token } = await tokensFor(user, { scope: 'mcp' });
    const path = `/api/ai/GetProducts?catalogId=${crypto.randomUUID()}`;
    expect((await send('GET', path)).status).toBe(401);
    const res = await send('GET', path, { token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('this operation needs the scope api');
  });
});
