import { describe, expect, it } from 'vitest';
import { readTranslations } from '../src/model/translation-store';
import { db, makeCatalog, makeProduct } from './helpers/factories';
import { callTool, openSession, toolError } from './mcp-helpers';
import { makeAgentUser, send, tokensFor } from './oauth-helpers';

async function agent() {
  const user = await makeAgentUser();
  const { access_token: token } = await tokensFor(user, { scope: 'mcp', clientName: 'Translator Bot' });
  const { sessionId } = await openSession(token);
  return { ...user, call: (name: string, args: Record<string, unknown>) => callTool(token, sessionId, name, args) };
}

describe('Agents read and write per language (MCP)', () => {
  it('lists the products missing English, writes English names, and history names the agent and its client', async () => {
    const a = await agent();
    const catalog = await makeCatalog(a, { languages: ['eng', 'fra'] });
    const one = await makeProduct(a, catalog.catalogId, { sku: 'AG-1', name: 'Kabel' });
    const two = await makeProduct(a, catalog.catalogId, { sku: 'AG-2', name: 'Schalter', description: 'Ein Schalter' });
    await makeProduct(a, catalog.catalogId, { sku: 'AG-3', name: 'Dose', translations: { eng: { name: 'Box' } } });

    const missing = await a.call('search_products', {
      catalogId: catalog.catalogId,
      missingTranslation: 'eng',
      language: 'eng',
    });
    expect(missing.isError).toBeFalsy();
    const items = missing.structuredContent.items as {
      sku: string;
      name: string | null;
      missingTranslations: string[];
    }[];
    expect(items.map((p) => [p.sku, p.name, p.missingTranslations])).toEqual([
      ['AG-1', null, ['name']],
      ['AG-2', null, ['name', 'description']],
    ]);

    const set = await a.call('set_value', { elementId: one.productId, field: 'name', value: 'Cable', language: 'eng' });
    expect(set.isError, JSON.stringify(set)).toBeFalsy();
    expect(set.structuredContent).toMatchObject({ value: 'Cable', language: 'eng' });
    const update = await a.call('update_product', {
      productId: two.productId,
      translations: { eng: { name: 'Switch', description: 'A switch' } },
    });
    expect(update.isError, JSON.stringify(update)).toBeFalsy();

    const after = await a.call('search_products', { catalogId: catalog.catalogId, missingTranslation: 'eng' });
    expect(after.structuredContent.items).toEqual([]);
    const english = await a.call('get_product', { productId: two.productId, language: 'eng' });
    expect(english.structuredContent).toMatchObject({ name: 'Switch', description: 'A switch', language: 'eng' });

    const history = await send('GET', `/api/Catalog/GetHistory?elementId=${two.productId}`, { cookie: a.session });
    const [version] = history.json.items;
    expect(version).toMatchObject({ surface: 'mcp', clientName: 'Translator Bot', user: { userId: a.userId } });
    expect(version.changes.map((c: { path: string }) => c.path).sort()).toEqual(['description@eng', 'name@eng']);
  });

  it('refuses a language not enabled and a language-neutral field, writing nothing', async () => {
    const a = await agent();
    const catalog = await makeCatalog(a, { languages: ['eng'] });
    const p = await makeProduct(a, catalog.catalogId, { sku: 'AG-X', name: 'Kabel' });
    const italian = await a.call('set_value', {
      elementId: p.productId,
      field: 'name',
      value: 'Cavo',
      language: 'ita',
    });
    expect(italian.isError).toBe(true);
    expect(toolError(italian).error).toContain('language: Italian (ita) is not enabled');
    const neutral = await a.call('update_product', {
      productId: p.productId,
      translations: { eng: { name: 'Cable', gtin: '4006381333931' } },
    });
    expect(neutral.isError).toBe(true);
    expect(toolError(neutral).error).toContain('translations.eng.gtin');
    expect((await readTranslations(db(), [p.productId])).get(p.productId)).toBeUndefined();
    const read = await a.call('get_product', { productId: p.productId, language: 'xyz' });
    expect(read.isError).toBe(true);
  });
});
