import { describe, expect, it } from 'vitest';
import { createClassification } from '../src/classification/links';
import { planReleaseUpgrade } from '../src/releases/upgrade-job';
import { asActor, db, makeCatalog, makeCompany, makeProduct, makeUser } from './helpers/factories';
import { call } from './helpers/http';
import { etimFiles, loadRelease } from './helpers/release-fixtures';
import { callTool, openSession, sessionCall } from './mcp-helpers';
import { makeAgentUser, send, tokensFor } from './oauth-helpers';

/** Two loaded ETIM fixture releases, named for this test. */
async function twoReleases() {
  const t = crypto.randomUUID().slice(0, 8);
  const admin = await makeUser(await makeCompany(), { role: 'admin' });
  for (const version of [`o${t}`, `n${t}`]) {
    const { job } = await loadRelease(admin, { system: 'ETIM', version, files: etimFiles() });
    expect(job!.state, job!.error ?? '').toBe('succeeded');
  }
  return { from: `ETIM-o${t}`, to: `ETIM-n${t}` };
}

/** A product of `tenant` classified with EC000905 of `release` (null: not classified). */
async function classified(
  tenant: Parameters<typeof makeProduct>[0],
  catalogId: string,
  sku: string,
  release: string | null,
) {
  const product = await makeProduct(tenant, catalogId, { sku });
  if (release)
    await createClassification(db(), asActor(tenant), {
      name: sku,
      classificationGroups: 1,
      elementId: product.productId,
      classes: [{ group: 'ETIM', code: 'EC000905', release }],
      features: [{ code: 'EF000008', value: '12' }],
    });
  return product;
}

describe('products still on an old release', () => {
  it('GetProducts?classificationRelease= lists only the tenant products of that release, keyset paginated; /api/ai and MCP search_products too', async () => {
    const { from, to } = await twoReleases();
    const user = await makeAgentUser({ aiSwitch: true });
    const catalog = await makeCatalog(user);
    await classified(user, catalog.catalogId, 'OLD-1', from);
    await classified(user, catalog.catalogId, 'OLD-2', from);
    await classified(user, catalog.catalogId, 'NEW-1', to);
    await classified(user, catalog.catalogId, 'NONE-1', null);
    const them = await makeCompany();
    await classified(them, (await makeCatalog(them)).catalogId, 'THEIRS-1', from);

    const list = (query: string) =>
      call('GET', `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&${query}`, { cookie: user.session });
    const first = await list(`classificationRelease=${from}&limit=1`);
    expect(first.status, first.text).toBe(200);
    expect(first.json.items.map((p: any) => p.sku)).toEqual(['OLD-1']);
    const second = await list(
      `classificationRelease=${from}&limit=1&cursor=${encodeURIComponent(first.json.nextCursor)}`,
    );
    expect(second.json.items.map((p: any) => p.sku)).toEqual(['OLD-2']);
    expect(second.json.nextCursor).toBeNull();
    expect((await list(`classificationRelease=${to}`)).json.items.map((p: any) => p.sku)).toEqual(['NEW-1']);
    expect((await list('classificationRelease=ETIM-0.0')).json.items).toEqual([]);
    const bad = await list('classificationRelease=%3Bdrop');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toContain('classificationRelease must be a release such as ETIM-9.0');

    const api = await tokensFor(user, { scope: 'api' });
    const ai = await send('GET', `/api/ai/GetProducts?catalogId=${catalog.catalogId}&classificationRelease=${from}`, {
      token: api.access_token,
    });
    expect(ai.status, ai.text).toBe(200);
    expect(ai.json.items.map((p: any) => p.sku)).toEqual(['OLD-1', 'OLD-2']);

    const { access_token: token } = await tokensFor(user, { scope: 'mcp' });
    const { sessionId } = await openSession(token);
    const found = await callTool(token, sessionId, 'search_products', {
      catalogId: catalog.catalogId,
      classificationRelease: from,
    });
    expect(found.structuredContent.items.map((p: any) => p.sku)).toEqual(['OLD-1', 'OLD-2']);
  });
});

describe('MCP preview_release_upgrade', () => {
  it("is listed read-only, answers the dry run of the agent's own company; starting the upgrade stays an administrator's", async () => {
    const { from, to } = await twoReleases();
    const user = await makeAgentUser({ aiSwitch: true });
    const catalog = await makeCatalog(user);
    await classified(user, catalog.catalogId, 'UP-1', from);
    await classified(user, catalog.catalogId, 'UP-2', from);
    const them = await makeCompany();
    await classified(them, (await makeCatalog(them)).catalogId, 'THEIRS-2', from);
    const { access_token: token } = await tokensFor(user, { scope: 'mcp' });
    const { sessionId } = await openSession(token);

    const { response } = await sessionCall(token, sessionId, 'tools/list');
    const tools = response.result.tools as any[];
    const preview = tools.find((t) => t.name === 'preview_release_upgrade');
    expect(preview.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tools.filter((t) => /upgrade|verify/.test(t.name)).map((t) => t.name)).toEqual(['preview_release_upgrade']);

    const result = await callTool(token, sessionId, 'preview_release_upgrade', { from, to });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ from, to, classifications: 2, moving: 2, review: [] });
    expect(result.structuredContent).toEqual(await planReleaseUpgrade(db(), asActor(user), { from, to }));
    const unknown = await callTool(token, sessionId, 'preview_release_upgrade', { from, to: 'ETIM-0.0' });
    expect(unknown.isError).toBe(true);

    const { reply } = await sessionCall(token, sessionId, 'tools/call', {
      name: 'start_release_upgrade',
      arguments: { from, to },
    });
    expect(reply.text).not.toContain('"jobId"');
    const started = await call('POST', '/api/Classification/StartReleaseUpgrade', {
      cookie: user.session,
      headers: { Origin: 'http://pim.test' },
      body: { from, to },
    });
    expect(started.status).toBe(403);
    const api = await tokensFor(user, { scope: 'api' });
    const viaAi = await send('POST', '/api/ai/StartReleaseUpgrade', { token: api.access_token, json: { from, to } });
    expect(viaAi.status).toBe(404);
  });
});
