import { describe, expect, it } from 'vitest';
import { NOT_PERMITTED } from '../src/kernel/permissions';
import { readTranslations } from '../src/model/translation-store';
import { db, makeCatalog, makeCompany, makeProduct, makeUser } from './helpers/factories';
import { call, loginAs } from './helpers/http';
import { callTool, openSession, toolError } from './mcp-helpers';
import { send, tokensFor } from './oauth-helpers';
import { tenantDigest } from './helpers/tenant-digest';

/**
 * A translator writes their languages' texts through every product write that takes
 * `translations` (docs/teams.md "Language scope"): `UpdateProduct` on the web and through
 * `/api/ai`, MCP `update_product`. Texts in another language, or any other field, are 403
 * before validation with nothing changed.
 */
async function translatorFor(languages: string[], customPermissions?: string[]) {
  const company = await makeCompany();
  const admin = await makeUser(company, { role: 'admin' });
  const adminCookie = await loginAs(admin.email);
  const catalog = await makeCatalog(company, { language: 'deu', languages: ['fra', 'eng'] });
  const product = await makeProduct(company, catalog.catalogId, { name: 'Kabel' });
  const member = await makeUser(company, { role: 'viewer', aiSwitch: true });
  let role = 'translator';
  if (customPermissions) {
    const created = await call('POST', '/api/Account/CreateRole', {
      cookie: adminCookie,
      body: { name: 'Localiser', permissions: customPermissions },
    });
    expect(created.status, created.text).toBe(200);
    role = created.json.roleId;
  }
  const set = await call('POST', '/api/Account/SetMemberRole', {
    cookie: adminCookie,
    body: { userId: member.userId, role, languages },
  });
  expect(set.status, set.text).toBe(200);
  const cookie = await loginAs(member.email);
  return { company, catalog, product, member, cookie };
}

const french = async (productId: string) => (await readTranslations(db(), [productId])).get(productId)?.fra;

describe('a translator writing through UpdateProduct and update_product', () => {
  it('writes French texts on the web and is refused German, English, another field and an empty write', async () => {
    const t = await translatorFor(['fra']);
    const base = {
      departmentId: t.company.departmentId,
      catalogId: t.catalog.catalogId,
      productId: t.product.productId,
    };
    const update = (body: unknown) => call('POST', '/api/Catalog/UpdateProduct', { cookie: t.cookie, body });
    const ok = await update({ ...base, translations: { fra: { name: 'Câble', description: 'Un câble' } } });
    expect(ok.status, ok.text).toBe(200);
    expect(await french(t.product.productId)).toMatchObject({ name: 'Câble', description: 'Un câble' });

    const before = await tenantDigest([t.company.companyId]);
    for (const [label, body] of [
      ['German, the catalog default', { ...base, translations: { deu: { name: 'Leitung' } } }],
      ['French and English', { ...base, translations: { fra: { name: 'X' }, eng: { name: 'Cable' } } }],
      ['French and a price', { ...base, price: '1.00', translations: { fra: { name: 'X' } } }],
      ['the name without a language', { ...base, name: 'Leitung' }],
      ['nothing but the product', base],
      ['translations that are no object', { ...base, translations: ['fra'] }],
    ] as const) {
      const res = await update(body);
      expect({ label, status: res.status, error: res.json.error }).toEqual({
        label,
        status: 403,
        error: NOT_PERMITTED,
      });
    }
    // Authorized, then validated: a field that has no text per language is the body's fault (400).
    const bad = await update({ ...base, translations: { fra: { sku: 'X' } } });
    expect(bad.status).toBe(400);
    expect(await tenantDigest([t.company.companyId])).toBe(before);
  });

  it('writes French texts through /api/ai and MCP update_product, and is refused another language', async () => {
    const t = await translatorFor(['fra']);
    const { access_token: token } = await tokensFor({ session: t.cookie });
    const body = (language: string, name: string) => ({
      catalogId: t.catalog.catalogId,
      productId: t.product.productId,
      translations: { [language]: { name } },
    });
    const agent = await send('POST', '/api/ai/UpdateProduct', { token, json: body('fra', 'Câble IA') });
    expect(agent.status, agent.text).toBe(200);
    expect((await french(t.product.productId))?.name).toBe('Câble IA');
    const agentGerman = await send('POST', '/api/ai/UpdateProduct', { token, json: body('deu', 'Leitung') });
    expect([agentGerman.status, agentGerman.json.error]).toEqual([403, NOT_PERMITTED]);

    const { sessionId } = await openSession(token);
    const tool = await callTool(token, sessionId, 'update_product', {
      productId: t.product.productId,
      translations: { fra: { name: 'Câble MCP' } },
    });
    expect(tool.isError ?? false, JSON.stringify(tool)).toBe(false);
    expect((await french(t.product.productId))?.name).toBe('Câble MCP');
    const before = await tenantDigest([t.company.companyId]);
    const english = await callTool(token, sessionId, 'update_product', {
      productId: t.product.productId,
      translations: { eng: { name: 'Cable' } },
    });
    expect(toolError(english).error).toBe(NOT_PERMITTED);
    expect(await tenantDigest([t.company.companyId])).toBe(before);
  }, 60_000);

  it('applies the same rule to a custom role that writes texts only', async () => {
    const t = await translatorFor(['eng'], ['text.write']);
    const base = {
      departmentId: t.company.departmentId,
      catalogId: t.catalog.catalogId,
      productId: t.product.productId,
    };
    const english = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: t.cookie,
      body: { ...base, translations: { eng: { name: 'Cable' } } },
    });
    expect(english.status, english.text).toBe(200);
    const frenchRes = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: t.cookie,
      body: { ...base, translations: { fra: { name: 'Câble' } } },
    });
    expect([frenchRes.status, frenchRes.json.error]).toEqual([403, NOT_PERMITTED]);
  });
});
