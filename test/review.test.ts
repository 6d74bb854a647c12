import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { addChannel } from '../src/completeness/channels';
import { setChannelReview } from '../src/completeness/review-rule';
import { AGENTS_NEVER_APPROVE } from '../src/completeness/review-scope';
import { approveProducts, submitForReview } from '../src/completeness/review-states';
import { updateProduct } from '../src/catalog/products';
import { get, post, waitForJob } from './helpers/completeness';
import { FakeConnector } from './helpers/fake-connector';
import { db, enableLanguages, makeCatalog, makeCompany, makeProduct, makeUser } from './helpers/factories';
import { loginAs } from './helpers/http';
import { connect, product, runSync, syncDeps, syncSetup } from './helpers/sync-fixtures';
import { send as sendAgent, tokensFor } from './oauth-helpers';

/**
 * A company publishing German (its catalog's language) and English, with two admins, an editor
 * (web session and agent token) and a channel "Shop" with review off.
 */
async function reviewSetup() {
  const company = await makeCompany();
  await enableLanguages(company.companyId, ['eng']);
  const admin = await makeUser(company, { role: 'admin' });
  const otherAdmin = await makeUser(company, { role: 'admin' });
  const editor = await makeUser(company, { aiSwitch: true });
  const cookies = {
    admin: await loginAs(admin.email),
    otherAdmin: await loginAs(otherAdmin.email),
    editor: await loginAs(editor.email),
  };
  const catalog = await makeCatalog(company, { language: 'deu', languages: ['deu', 'eng'] });
  const channel = await post(cookies.admin, '/api/Catalog/AddChannel', {
    name: 'Shop',
    languages: ['deu', 'eng'],
    requirements: [],
  });
  expect(channel.status, channel.text).toBe(200);
  await waitForJob(cookies.admin, channel.json.jobId);
  const editorTenant = { ...company, userId: editor.userId };
  const makeMaster = (sku: string, overrides: Record<string, unknown> = {}) =>
    makeProduct(editorTenant, catalog.catalogId, { sku, ...overrides });
  return {
    company,
    admin,
    otherAdmin,
    editor,
    cookies,
    catalog,
    channelId: channel.json.channelId as string,
    makeMaster,
  };
}

type Setup = Awaited<ReturnType<typeof reviewSetup>>;

const setReview = (s: Setup, rule: unknown, enabled = true) =>
  post(s.cookies.admin, '/api/Catalog/SetChannelReview', { channelId: s.channelId, enabled, rule });
const submit = (s: Setup, cookie: string, productIds: string[]) =>
  post(cookie, '/api/Catalog/SubmitForReview', { channelId: s.channelId, productIds });
const approve = (s: Setup, cookie: string, productIds: string[]) =>
  post(cookie, '/api/Catalog/ApproveProducts', { channelId: s.channelId, productIds });
const reject = (s: Setup, cookie: string, productIds: string[], comment: string) =>
  post(cookie, '/api/Catalog/RejectProducts', { channelId: s.channelId, productIds, comment });

/** The product's state in the Shop channel. */
async function stateOf(s: Setup, productId: string) {
  const res = await get(s.cookies.editor, `/api/Catalog/GetReviewState?productId=${productId}`);
  expect(res.status, res.text).toBe(200);
  return res.json.channels.find((c: { channelId: string }) => c.channelId === s.channelId);
}

/** Submitted by the editor, approved by an admin: the product is approved. */
async function approved(s: Setup, sku: string) {
  const p = await s.makeMaster(sku);
  expect((await submit(s, s.cookies.editor, [p.productId])).status).toBe(200);
  const res = await approve(s, s.cookies.admin, [p.productId]);
  expect(res.status, res.text).toBe(200);
  return p;
}

const setValue = (s: Setup, cookie: string, elementId: string, field: string, value: string, language?: string) =>
  post(cookie, '/api/Catalog/SetValue', {
    departmentId: s.company.departmentId,
    elementId,
    field,
    value,
    ...(language ? { language } : {}),
  });

describe('review settings per channel (SetChannelReview)', () => {
  it('is for admins only, refuses a bad rule naming the field and changes nothing, then stores the rule', async () => {
    const s = await reviewSetup();
    const editorTry = await post(s.cookies.editor, '/api/Catalog/SetChannelReview', {
      channelId: s.channelId,
      enabled: true,
      rule: { kind: 'any' },
    });
    expect(editorTry.status).toBe(403);
    expect(editorTry.json.error).toBe('only a company admin may do this');
    const bad: [unknown, boolean, string][] = [
      [undefined, true, 'rule: required when enabled'],
      [{ kind: 'any' }, false, 'rule: give a rule only with enabled: true'],
      [{ kind: 'fields' }, true, 'rule.fields: name at least one field or language'],
      [{ kind: 'fields', fields: ['colour'] }, true, 'rule.fields[0]: colour is not a product field'],
      [{ kind: 'fields', fields: ['values.nope'] }, true, 'rule.fields[0]: values.nope names no attribute'],
      [{ kind: 'fields', fields: ['name@eng'] }, true, 'rule.fields[0]: name the field without a language'],
      [{ kind: 'fields', languages: ['fra'] }, true, 'rule.languages[0]: fra is not a language of the channel'],
      [{ kind: 'fields', fields: ['name', 'name'] }, true, 'rule.fields[1]: name is listed twice'],
      [{ kind: 'sometimes' }, true, 'rule'],
    ];
    for (const [rule, enabled, message] of bad) {
      const res = await setReview(s, rule, enabled);
      expect({ rule, status: res.status }).toEqual({ rule, status: 400 });
      expect(res.json.error).toContain(message);
    }
    const before = await get(s.cookies.admin, '/api/Catalog/GetChannels');
    expect(before.json.items[0].review).toEqual({ enabled: false, rule: null });

    const ok = await setReview(s, { kind: 'fields', fields: ['name', 'values'], languages: ['eng'] });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.review).toEqual({
      enabled: true,
      rule: { kind: 'fields', fields: ['name', 'values'], languages: ['eng'] },
    });
    const off = await setReview(s, undefined, false);
    expect(off.json.review).toEqual({ enabled: false, rule: null });
  });
});

describe('the review state machine', () => {
  it('goes draft → in_review → approved, rejects back to draft with the comment kept, and answers 409 for anything else', async () => {
    const s = await reviewSetup();
    const p1 = await s.makeMaster('P-1');
    const off = await submit(s, s.cookies.editor, [p1.productId]);
    expect(off.status).toBe(409);
    expect(off.json.error).toContain('review is off for the channel "Shop"');
    expect((await setReview(s, { kind: 'any' })).status).toBe(200);

    expect(await stateOf(s, p1.productId)).toMatchObject({ state: 'draft', reviewEnabled: true, name: 'Shop' });
    const submitted = await submit(s, s.cookies.editor, [p1.productId]);
    expect(submitted.json).toEqual({ channelId: s.channelId, state: 'in_review', productIds: [p1.productId] });
    expect(await stateOf(s, p1.productId)).toMatchObject({ state: 'in_review', submittedBy: s.editor.userId });
    const again = await submit(s, s.cookies.editor, [p1.productId]);
    expect(again.status).toBe(409);
    expect(again.json.error).toContain('productIds[0]');

    const ok = await approve(s, s.cookies.admin, [p1.productId]);
    expect(ok.status, ok.text).toBe(200);
    expect(await stateOf(s, p1.productId)).toMatchObject({ state: 'approved', approvedBy: s.admin.userId });
    expect((await approve(s, s.cookies.otherAdmin, [p1.productId])).status).toBe(409);
    expect((await reject(s, s.cookies.admin, [p1.productId], 'too late')).status).toBe(409);
    expect(await stateOf(s, p1.productId)).toMatchObject({ state: 'approved', rejectionComment: null });

    // Rejected: back to draft, the comment stays with the product; an empty comment is a 400.
    const p2 = await s.makeMaster('P-2');
    await submit(s, s.cookies.editor, [p2.productId]);
    const empty = await reject(s, s.cookies.admin, [p2.productId], '  ');
    expect(empty.status).toBe(400);
    expect(empty.json.error).toContain('comment');
    const rejected = await reject(s, s.cookies.admin, [p2.productId], 'The English name is missing');
    expect(rejected.json.state).toBe('draft');
    expect(await stateOf(s, p2.productId)).toMatchObject({
      state: 'draft',
      rejectedBy: s.admin.userId,
      rejectionComment: 'The English name is missing',
    });
    // A draft is not approved.
    expect((await approve(s, s.cookies.admin, [p2.productId])).status).toBe(409);

    // All or nothing: one product in the wrong state and none moves.
    const p3 = await s.makeMaster('P-3');
    const mixed = await submit(s, s.cookies.editor, [p3.productId, p1.productId]);
    expect(mixed.status).toBe(409);
    expect(mixed.json.error).toContain(`productIds[1]: ${p1.productId} is approved`);
    expect((await stateOf(s, p3.productId)).state).toBe('draft');

    // The inbox holds what is in review, by product id, page by page.
    await submit(s, s.cookies.editor, [p2.productId, p3.productId]);
    const first = await get(s.cookies.admin, `/api/Catalog/GetReviewInbox?channelId=${s.channelId}&limit=1`);
    expect(first.json.items).toHaveLength(1);
    const second = await get(
      s.cookies.admin,
      `/api/Catalog/GetReviewInbox?channelId=${s.channelId}&limit=1&cursor=${first.json.nextCursor}`,
    );
    expect(second.json.nextCursor).toBeNull();
    expect([first.json.items[0].productId, second.json.items[0].productId].sort()).toEqual(
      [p2.productId, p3.productId].sort(),
    );
    // Never approved: no change since an approval to show, the last rejection is still there.
    const p2Item = [first.json.items[0], second.json.items[0]].find((i) => i.productId === p2.productId);
    expect(p2Item).toMatchObject({ state: 'in_review', changes: [], rejectionComment: 'The English name is missing' });
  });

  it('refuses a variant, duplicate ids and bad input with 400 naming the field', async () => {
    const s = await reviewSetup();
    await setReview(s, { kind: 'any' });
    const master = await s.makeMaster('M-1');
    const variant = await s.makeMaster('M-1-V', { parentId: master.productId });
    const v = await submit(s, s.cookies.editor, [variant.productId]);
    expect(v.status).toBe(400);
    expect(v.json.error).toContain('productIds[0]');
    expect(v.json.error).toContain('variant');
    const twice = await submit(s, s.cookies.editor, [master.productId, master.productId]);
    expect(twice.status).toBe(400);
    expect(twice.json.error).toContain('productIds[1]');
    const none = await submit(s, s.cookies.editor, []);
    expect(none.status).toBe(400);
    expect(none.json.error).toContain('productIds');
    const state = await get(s.cookies.editor, `/api/Catalog/GetReviewState?productId=${variant.productId}`);
    expect(state.status).toBe(400);
    expect(state.json.error).toContain('productId');
    expect((await stateOf(s, master.productId)).state).toBe('draft');
  });
});

describe('the rule: which writes send an approved product back to review', () => {
  it('moves it back for a change of a named field in a named language only, and shows the change in the inbox', async () => {
    const s = await reviewSetup();
    await setReview(s, { kind: 'fields', fields: ['name'], languages: ['eng'] });
    const p = await approved(s, 'R-1');
    // The German name (the catalog's language), an English description, a price: not the rule's.
    expect((await setValue(s, s.cookies.editor, p.productId, 'name', 'Bohrer')).status).toBe(200);
    expect((await setValue(s, s.cookies.editor, p.productId, 'description', 'A drill', 'eng')).status).toBe(200);
    expect((await setValue(s, s.cookies.editor, p.productId, 'price', '9.50')).status).toBe(200);
    expect((await stateOf(s, p.productId)).state).toBe('approved');

    expect((await setValue(s, s.cookies.editor, p.productId, 'name', 'Drill', 'eng')).status).toBe(200);
    expect((await stateOf(s, p.productId)).state).toBe('in_review');
    const inbox = await get(s.cookies.admin, `/api/Catalog/GetReviewInbox?channelId=${s.channelId}`);
    const item = inbox.json.items.find((i: { productId: string }) => i.productId === p.productId);
    expect(item.lastChange).toMatchObject({ userId: s.editor.userId, surface: 'web' });
    expect(item.changes).toEqual(
      expect.arrayContaining([
        { elementId: p.productId, path: 'name@eng', before: null, after: 'Drill' },
        { elementId: p.productId, path: 'name', before: 'Test product', after: 'Bohrer' },
        { elementId: p.productId, path: 'price', before: null, after: '9.50' },
      ]),
    );
  });

  it('moves it back for a language-only rule when a text in that language changes, not for the catalog language', async () => {
    const s = await reviewSetup();
    await setReview(s, { kind: 'fields', languages: ['eng'] });
    const p = await approved(s, 'L-1');
    await setValue(s, s.cookies.editor, p.productId, 'name', 'Bohrer');
    expect((await stateOf(s, p.productId)).state).toBe('approved');
    await setValue(s, s.cookies.editor, p.productId, 'description', 'A drill', 'eng');
    expect((await stateOf(s, p.productId)).state).toBe('in_review');
  });

  it('with `any`, a change of a variant sends its master back; a write that changes nothing does not', async () => {
    const s = await reviewSetup();
    await setReview(s, { kind: 'any' });
    const p = await s.makeMaster('A-1');
    const variant = await s.makeMaster('A-1-V', { parentId: p.productId });
    await submit(s, s.cookies.editor, [p.productId]);
    expect((await approve(s, s.cookies.admin, [p.productId])).status).toBe(200);
    await setValue(s, s.cookies.editor, p.productId, 'name', 'Test product');
    expect((await stateOf(s, p.productId)).state).toBe('approved');
    await setValue(s, s.cookies.editor, variant.productId, 'gtin', '4006381333931');
    expect((await stateOf(s, p.productId)).state).toBe('in_review');
  });
});

describe('who may approve', () => {
  it('lets agents submit but never approve or reject (403), and changes nothing', async () => {
    const s = await reviewSetup();
    await setReview(s, { kind: 'any' });
    const p = await s.makeMaster('AG-1');
    const { access_token: token } = await tokensFor({ session: s.cookies.editor });
    const body = { channelId: s.channelId, productIds: [p.productId] };
    const submitted = await sendAgent('POST', '/api/ai/SubmitForReview', { token, json: body });
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.json.state).toBe('in_review');
    const approval = await sendAgent('POST', '/api/ai/ApproveProducts', { token, json: body });
    expect(approval.status).toBe(403);
    expect(approval.json.error).toBe(AGENTS_NEVER_APPROVE);
    const rejection = await sendAgent('POST', '/api/ai/RejectProducts', { token, json: { ...body, comment: 'no' } });
    expect(rejection.status).toBe(403);
    const state = await sendAgent('GET', `/api/ai/GetReviewState?productId=${p.productId}`, { token });
    expect(state.json.channels[0]).toMatchObject({ state: 'in_review', submittedBy: s.editor.userId });
    // The domain refuses an agent caller whatever role it claims (MCP calls it too).
    const agent = { ...s.company, userId: s.editor.userId, surface: 'mcp' as const, role: 'admin' as const };
    await expect(approveProducts(db(), agent, body)).rejects.toThrow(AGENTS_NEVER_APPROVE);
  });

  it('refuses an admin the approval of their own last change; another admin approves it', async () => {
    const s = await reviewSetup();
    await setReview(s, { kind: 'any' });
    const p = await s.makeMaster('SELF-1');
    await submit(s, s.cookies.editor, [p.productId]);
    expect((await setValue(s, s.cookies.admin, p.productId, 'gtin', '4006381333931')).status).toBe(200);
    const own = await approve(s, s.cookies.admin, [p.productId]);
    expect(own.status).toBe(403);
    expect(own.json.error).toContain('you made the last change');
    expect((await stateOf(s, p.productId)).state).toBe('in_review');
    expect((await approve(s, s.cookies.editor, [p.productId])).status).toBe(403);
    const other = await approve(s, s.cookies.otherAdmin, [p.productId]);
    expect(other.status, other.text).toBe(200);
    expect((await stateOf(s, p.productId)).approvedBy).toBe(s.otherAdmin.userId);
  });
});

describe('tenant isolation', () => {
  it('answers 404 for a product or channel of another company and changes nothing', async () => {
    const a = await reviewSetup();
    const b = await reviewSetup();
    await setReview(a, { kind: 'any' });
    await setReview(b, { kind: 'any' });
    const pa = await a.makeMaster('T-A');
    const foreignProduct = await post(b.cookies.editor, '/api/Catalog/SubmitForReview', {
      channelId: b.channelId,
      productIds: [pa.productId],
    });
    expect(foreignProduct.status).toBe(404);
    expect(foreignProduct.json.error).toContain('productIds[0]');
    const foreignChannel = await post(b.cookies.editor, '/api/Catalog/SubmitForReview', {
      channelId: a.channelId,
      productIds: [pa.productId],
    });
    expect(foreignChannel.status).toBe(404);
    expect((await get(b.cookies.admin, `/api/Catalog/GetReviewState?productId=${pa.productId}`)).status).toBe(404);
    expect((await get(b.cookies.admin, `/api/Catalog/GetReviewInbox?channelId=${a.channelId}`)).status).toBe(404);
    await submit(a, a.cookies.editor, [pa.productId]);
    const foreignApproval = await post(b.cookies.admin, '/api/Catalog/ApproveProducts', {
      channelId: b.channelId,
      productIds: [pa.productId],
    });
    expect(foreignApproval.status).toBe(404);
    expect((await stateOf(a, pa.productId)).state).toBe('in_review');
  });
});

describe('exports and shop syncs of a channel with review on', () => {
  it('export only approved products and warn about the ones held back', async () => {
    const s = await reviewSetup();
    await setReview(s, { kind: 'any' });
    await approved(s, 'OK-1');
    const held = await s.makeMaster('HELD-1');
    await submit(s, s.cookies.editor, [held.productId]);
    const template = await post(s.cookies.admin, '/api/Export/AddTemplate', {
      name: 'Shop feed',
      exportType: 'BMEcat',
      options: { channelId: s.channelId },
    });
    expect(template.status, template.text).toBe(200);
    const started = await post(s.cookies.admin, '/api/Export/StartExport', {
      departmentId: s.company.departmentId,
      catalogId: s.catalog.catalogId,
      templateId: template.json.templateId,
    });
    expect(started.status, started.text).toBe(200);
    const job = await waitForJob(s.cookies.admin, started.json.jobId);
    expect(job.state, job.error).toBe('succeeded');
    expect(job.warnings).toContain('left out as not approved in review for Shop: 1 time (e.g. HELD-1)');
    const file = await get(s.cookies.admin, `/api/Export/Download?jobId=${started.json.jobId}`);
    expect(file.text).toContain('OK-1');
    expect(file.text).not.toContain('HELD-1');
  });

  it.each(['CSV', 'ETIMxChange'])(
    'a %s export for the channel writes only approved products and counts the ones held back',
    async (exportType) => {
      const s = await reviewSetup();
      await setReview(s, { kind: 'any' });
      await approved(s, 'OK-1');
      const held = await s.makeMaster('HELD-1');
      await submit(s, s.cookies.editor, [held.productId]);
      await s.makeMaster('DRAFT-1');
      const template = await post(s.cookies.admin, '/api/Export/AddTemplate', {
        name: `Shop ${exportType}`,
        exportType,
        options: { channelId: s.channelId },
      });
      expect(template.status, template.text).toBe(200);
      const started = await post(s.cookies.admin, '/api/Export/StartExport', {
        departmentId: s.company.departmentId,
        catalogId: s.catalog.catalogId,
        templateId: template.json.templateId,
      });
      expect(started.status, started.text).toBe(200);
      const job = await waitForJob(s.cookies.admin, started.json.jobId);
      expect(job.state, job.error).toBe('succeeded');
      const heldBack = (job.warnings as string[]).filter((w) => w.startsWith('left out as not approved in review'));
      expect(heldBack, JSON.stringify(job.warnings)).toEqual([
        expect.stringMatching(
          /^left out as not approved in review for Shop: 2 times \(e\.g\. (HELD-1, DRAFT-1|DRAFT-1, HELD-1)\)$/,
        ),
      ]);
      const file = await get(s.cookies.admin, `/api/Export/Download?jobId=${started.json.jobId}`);
      expect(file.text).toContain('OK-1');
      expect(file.text).not.toContain('HELD-1');
      expect(file.text).not.toContain('DRAFT-1');

      // Review off: the same template writes every product again.
      await setReview(s, undefined, false);
      const again = await post(s.cookies.admin, '/api/Export/StartExport', {
        departmentId: s.company.departmentId,
        catalogId: s.catalog.catalogId,
        templateId: template.json.templateId,
      });
      expect((await waitForJob(s.cookies.admin, again.json.jobId)).state).toBe('succeeded');
      const all = await get(s.cookies.admin, `/api/Export/Download?jobId=${again.json.jobId}`);
      expect(all.text).toContain('HELD-1');
    },
  );

  it('sync only approved masters, report the rest, and leave a shop copy of one sent back to review', async () => {
    const setup = await syncSetup();
    const reviewer = await makeUser(setup.company, { role: 'admin' });
    const reviewerCaller = { ...setup.caller, userId: reviewer.userId };
    const channel = await addChannel({ db: db(), queue: env.JOB_QUEUE }, setup.caller, {
      name: 'Shop',
      languages: ['deu'],
      requirements: [],
    });
    await setChannelReview(db(), setup.caller, { channelId: channel.channelId, enabled: true, rule: { kind: 'any' } });
    const a = await product(setup, 'A-1');
    await product(setup, 'B-2');
    const ids = { channelId: channel.channelId, productIds: [a.productId] };
    await submitForReview(db(), setup.caller, ids);
    await approveProducts(db(), reviewerCaller, ids);
    const connection = await connect(setup, { channelId: channel.channelId });
    const fake = new FakeConnector();

    const first = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(first.job.state).toBe('succeeded');
    expect(first.report).toMatchObject({
      created: 1,
      incomplete: { channel: 'Shop', count: 1, missing: [{ requirement: 'not approved in review', products: 1 }] },
    });
    expect([...fake.products.keys()]).toEqual(['A-1']);

    // A-1 changes: back in review, neither updated nor deactivated in the shop.
    await updateProduct(db(), setup.caller, {
      departmentId: setup.company.departmentId,
      catalogId: setup.catalogId,
      productId: a.productId,
      gtin: '4006381333931',
    } as never);
    const second = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(second.report).toMatchObject({ created: 0, updated: 0, deactivated: 0, incomplete: { count: 2 } });
    expect(fake.products.get('A-1')!.product).not.toMatchObject({ gtin: '4006381333931' });
  });
});
