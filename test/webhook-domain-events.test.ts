import { eq } from 'drizzle-orm';
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  completenessTransitionBefore,
  completenessTransitionPending,
  webhookDeliveries,
  webhookOutbox,
} from '../src/db/schema';
import { dispatchRound } from '../src/webhooks/dispatch';
import { get, post, waitForJob } from './helpers/completeness';
import {
  db,
  enableLanguages,
  makeCatalog,
  makeCategory,
  makeCompany,
  makeProduct,
  makeUser,
} from './helpers/factories';
import { loginAs } from './helpers/http';
import { heldQueue, makeEndpoint } from './helpers/webhooks';

/**
 * Webhook events of completeness (reached / lost per channel, written by the recompute job) and
 * of the review workflow (submitted, approved, rejected), fanned out by the dispatcher
 * (docs/webhooks.md "Events").
 */
async function setup(options: { webhooks?: boolean } = {}) {
  const company = await makeCompany();
  await enableLanguages(company.companyId, ['eng']);
  const admin = await makeUser(company, { role: 'admin' });
  const otherAdmin = await makeUser(company, { role: 'admin' });
  const cookies = { admin: await loginAs(admin.email), otherAdmin: await loginAs(otherAdmin.email) };
  const tenant = { ...company, userId: admin.userId };
  const catalog = await makeCatalog(company, { language: 'deu', languages: ['deu', 'eng'] });
  const endpoint = options.webhooks === false ? null : await makeEndpoint(tenant);
  const { queue } = heldQueue();
  await dispatchRound({ db: db(), queue }, company.companyId); // the dispatcher starts at the end
  return { company, admin, otherAdmin, cookies, tenant, catalog, endpoint, queue };
}
type Setup = Awaited<ReturnType<typeof setup>>;

async function saveChannel(s: Setup, requirements: unknown[], channelId?: string): Promise<string> {
  const body = { name: 'Shop', languages: ['deu', 'eng'], requirements };
  const res = channelId
    ? await post(s.cookies.admin, '/api/Catalog/UpdateChannel', { channelId, ...body })
    : await post(s.cookies.admin, '/api/Catalog/AddChannel', body);
  expect(res.status, res.text).toBe(200);
  expect((await waitForJob(s.cookies.admin, res.json.jobId)).state).toBe('succeeded');
  return channelId ?? res.json.channelId;
}

/** Runs the company's dispatcher and answers the payloads of the deliveries it created, in delivery order. */
async function dispatched(s: Setup) {
  for (let round = 0; round < 20; round++)
    if (!(await dispatchRound({ db: db(), queue: s.queue }, s.company.companyId)).more) break;
  const rows = await db()
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, s.endpoint!.endpointId))
    .orderBy(webhookDeliveries.id);
  await db().delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, s.endpoint!.endpointId));
  return rows.map((r) => ({ ...(JSON.parse(r.payload) as { type: string; data: Record<string, unknown> }), r }));
}

const only = (events: Awaited<ReturnType<typeof dispatched>>, prefix: string) =>
  events.filter((e) => e.type.startsWith(prefix)).map(({ type, data }) => ({ type, data }));

describe('Webhooks: completeness reached and lost per channel', () => {
  it('sends one event per master and channel whose completeness crosses, from the recompute, and none for a new channel', async () => {
    const s = await setup();
    const withText = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'C-1', description: 'Beschreibung' });
    const without = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'C-2' });
    const alsoWithout = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'C-3' });
    // a new channel: nothing was scored before, so nothing is lost (and nothing reached)
    const channelId = await saveChannel(s, [{ kind: 'field', field: 'description', languages: ['deu'] }]);
    expect(only(await dispatched(s), 'completeness.')).toEqual([]);

    // the requirement changes to the name: the two without a description reach completeness
    await saveChannel(s, [{ kind: 'field', field: 'name', languages: ['deu'] }], channelId);
    const reached = only(await dispatched(s), 'completeness.');
    expect(reached).toEqual(
      [without, alsoWithout]
        .sort((a, b) => a.productId.localeCompare(b.productId))
        .map((p) => ({
          type: 'completeness.reached',
          data: {
            productId: p.productId,
            sku: p.productId === without.productId ? 'C-2' : 'C-3',
            channelId,
            channelName: 'Shop',
            complete: true,
            scores: { deu: 100 },
          },
        })),
    );

    // back to the description: they lose it again; the master with a description stays complete
    await saveChannel(s, [{ kind: 'field', field: 'description', languages: ['deu'] }], channelId);
    const lost = await dispatched(s);
    expect(only(lost, 'completeness.').map((e) => [e.type, e.data.productId, e.data.complete])).toEqual(
      [without, alsoWithout]
        .map((p) => p.productId)
        .sort()
        .map((id) => ['completeness.lost', id, false]),
    );
    expect(lost.find((e) => e.type === 'completeness.lost')!.data.scores).toEqual({ deu: 0 });
    const lostEvents = lost.filter((e) => e.type === 'completeness.lost');
    expect(lostEvents.map((e) => e.r.orderKey)).toEqual(lostEvents.map((e) => e.data.productId)); // ordered per product
    expect(only(lost, 'completeness.').some((e) => e.data.productId === withText.productId)).toBe(false);
    // the scratch rows went with the page's batch
    expect(await db().select().from(completenessTransitionBefore)).toEqual([]);
  });

  it('counts a master complete only when every language of the channel is', async () => {
    const s = await setup();
    const product = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'L-1', description: 'Text' });
    const channelId = await saveChannel(s, [{ kind: 'field', field: 'name', languages: ['deu'] }]);
    await dispatched(s);
    // English joins the rule: the master has no English name, so it is incomplete in the channel
    await saveChannel(s, [{ kind: 'field', field: 'name', languages: ['deu', 'eng'] }], channelId);
    const events = only(await dispatched(s), 'completeness.');
    expect(events).toEqual([
      expect.objectContaining({
        type: 'completeness.lost',
        data: expect.objectContaining({ productId: product.productId, scores: { deu: 100, eng: 0 } }),
      }),
    ]);
    // a change that leaves it incomplete sends nothing
    await saveChannel(s, [{ kind: 'field', field: 'name', languages: ['eng'] }], channelId);
    expect(only(await dispatched(s), 'completeness.')).toEqual([]);
  });

  it('sends one event when a single write completes a master in every language of the channel, and one when it loses it', async () => {
    const s = await setup();
    const product = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'W-1' });
    const channelId = await saveChannel(s, [{ kind: 'field', field: 'description', languages: ['deu', 'eng'] }]);
    await dispatched(s);
    const setDescription = async (value: string, language?: string) => {
      const res = await post(s.cookies.admin, '/api/Catalog/SetValue', {
        departmentId: s.company.departmentId,
        elementId: product.productId,
        field: 'description',
        value,
        ...(language ? { language } : {}),
      });
      expect(res.status, res.text).toBe(200);
    };
    await setDescription('Beschreibung'); // German only: still incomplete in English
    expect(only(await dispatched(s), 'completeness.')).toEqual([]);
    await setDescription('Description', 'eng');
    const reached = await dispatched(s);
    expect(only(reached, 'completeness.')).toEqual([
      {
        type: 'completeness.reached',
        data: {
          productId: product.productId,
          sku: 'W-1',
          channelId,
          channelName: 'Shop',
          complete: true,
          scores: { deu: 100, eng: 100 },
        },
      },
    ]);
    // the product's own change event goes first, both ordered by the product
    expect(reached.map((e) => [e.type, e.r.orderKey])).toEqual([
      ['product.updated', product.productId],
      ['completeness.reached', product.productId],
    ]);
    await setDescription(''); // cleared
    expect(only(await dispatched(s), 'completeness.')).toEqual([
      expect.objectContaining({
        type: 'completeness.lost',
        data: expect.objectContaining({ productId: product.productId, complete: false, scores: { deu: 0, eng: 100 } }),
      }),
    ]);
  });

  it('writes no outbox rows for a company without an enabled endpoint', async () => {
    const s = await setup({ webhooks: false });
    await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'N-1' });
    const channelId = await saveChannel(s, [{ kind: 'field', field: 'name', languages: ['deu'] }]);
    await saveChannel(s, [{ kind: 'field', field: 'description', languages: ['deu'] }], channelId);
    const product = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'N-2' });
    const set = await post(s.cookies.admin, '/api/Catalog/SetValue', {
      departmentId: s.company.departmentId,
      elementId: product.productId,
      field: 'description',
      value: 'Text',
    });
    expect(set.status, set.text).toBe(200);
    expect(await db().select().from(webhookOutbox).where(eq(webhookOutbox.companyId, s.company.companyId))).toEqual([]);
  });
});

describe('Webhooks: completeness of variants, and a pair whose rows all go', () => {
  const setGtin = async (s: Setup, elementId: string, value: string) => {
    const res = await post(s.cookies.admin, '/api/Catalog/SetValue', {
      departmentId: s.company.departmentId,
      elementId,
      field: 'gtin',
      value,
    });
    expect(res.status, res.text).toBe(200);
  };

  it('sends reached and lost for a variant from a single write, naming its master and its own sku', async () => {
    const s = await setup();
    const master = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'VM-1' });
    const variant = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'VM-1-A', parentId: master.productId });
    // the GTIN is the variant's own (never inherited): the variant is incomplete until it has one
    const channelId = await saveChannel(s, [{ kind: 'field', field: 'gtin', languages: ['deu'] }]);
    await dispatched(s);
    await setGtin(s, variant.productId, '4006381333931');
    const reached = await dispatched(s);
    expect(only(reached, 'completeness.')).toEqual([
      {
        type: 'completeness.reached',
        data: {
          productId: master.productId,
          variantId: variant.productId,
          sku: 'VM-1-A',
          channelId,
          channelName: 'Shop',
          complete: true,
          scores: { deu: 100 },
        },
      },
    ]);
    // ordered by the variant, after its own change event
    expect(reached.map((e) => [e.type, e.r.orderKey])).toEqual([
      ['product.updated', variant.productId],
      ['completeness.reached', variant.productId],
    ]);
    await setGtin(s, variant.productId, '');
    expect(only(await dispatched(s), 'completeness.')).toEqual([
      {
        type: 'completeness.lost',
        data: expect.objectContaining({
          productId: master.productId,
          variantId: variant.productId,
          sku: 'VM-1-A',
          complete: false,
          scores: { deu: 0 },
        }),
      },
    ]);
  });

  it("sends the variants' events from the recompute too, and reached when an incomplete pair's rows all go", async () => {
    const s = await setup();
    const master = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'VR-1', description: 'Text' });
    const variant = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'VR-1-A', parentId: master.productId });
    const channelId = await saveChannel(s, [{ kind: 'field', field: 'description', languages: ['deu'] }]);
    await dispatched(s);
    // the GTIN is required: master and variant lose completeness (neither has one)
    await saveChannel(s, [{ kind: 'field', field: 'gtin', languages: ['deu'] }], channelId);
    const lost = only(await dispatched(s), 'completeness.');
    expect(lost).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'completeness.lost',
          data: expect.objectContaining({ productId: master.productId, sku: 'VR-1', complete: false }),
        }),
        expect.objectContaining({
          type: 'completeness.lost',
          data: expect.objectContaining({ productId: master.productId, variantId: variant.productId, sku: 'VR-1-A' }),
        }),
      ]),
    );
    expect(lost).toHaveLength(2);
    expect(lost.find((e) => !('variantId' in e.data))!.data).not.toHaveProperty('variantId');
    // no requirement left: no score rows, which the exports' onlyComplete takes as complete
    await saveChannel(s, [], channelId);
    const reached = only(await dispatched(s), 'completeness.');
    expect(reached.map((e) => [e.type, e.data.sku, e.data.scores])).toEqual(
      expect.arrayContaining([
        ['completeness.reached', 'VR-1', {}],
        ['completeness.reached', 'VR-1-A', {}],
      ]),
    );
    expect(reached).toHaveLength(2);
  });

  it("sends reached from a single write when a variant's last row under 100 goes, and when a pair's rows all go; nothing for a deleted product", async () => {
    const s = await setup();
    const master = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'VD-1', description: 'Text' });
    const variant = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'VD-1-A', parentId: master.productId });
    // the variant inherits the German description: 100 in German, 0 in English, as its master
    const channelId = await saveChannel(s, [{ kind: 'field', field: 'description', languages: ['deu', 'eng'] }]);
    await dispatched(s);
    // what the upkeep does when no rule produces a language's rows any more (src/db/score-refresh.ts):
    // the deletes, then the write's end (migration 0069)
    const deleteRows = (table: string, productId: string, langs: string[]) =>
      env.DB.batch([
        ...langs.map((lang) =>
          env.DB.prepare(
            `DELETE FROM ${table} WHERE product_key = (SELECT rowid FROM products WHERE id = ?) AND lang = ?`,
          ).bind(productId, lang),
        ),
        env.DB.prepare('INSERT INTO completeness_events_flush (id) VALUES (1)'),
      ]);
    await deleteRows('variant_completeness', variant.productId, ['eng']);
    expect(only(await dispatched(s), 'completeness.')).toEqual([
      {
        type: 'completeness.reached',
        data: {
          productId: master.productId,
          variantId: variant.productId,
          sku: 'VD-1-A',
          channelId,
          channelName: 'Shop',
          complete: true,
          scores: { deu: 100 },
        },
      },
    ]);
    // an incomplete pair whose rows all go in one write reached completeness (no rule applies)
    await deleteRows('completeness', master.productId, ['deu', 'eng']);
    expect(only(await dispatched(s), 'completeness.')).toEqual([
      expect.objectContaining({
        type: 'completeness.reached',
        data: expect.objectContaining({ productId: master.productId, sku: 'VD-1', complete: true, scores: {} }),
      }),
    ]);
    // a deleted product's rows go with it: no event
    const other = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'VD-2' });
    await dispatched(s);
    const del = await post(s.cookies.admin, '/api/Catalog/DeleteProduct', {
      departmentId: s.company.departmentId,
      productId: other.productId,
    });
    expect(del.status, del.text).toBe(200);
    expect(only(await dispatched(s), 'completeness.')).toEqual([]);
    expect(await db().select().from(completenessTransitionPending)).toEqual([]);
  });
});

describe('Webhooks: completeness compared per write, not per score row (migration 0069)', () => {
  const place = async (s: Setup, productId: string, categoryIds: string[]) => {
    const res = await post(s.cookies.admin, '/api/Catalog/UpdateProduct', {
      departmentId: s.company.departmentId,
      catalogId: s.catalog.catalogId,
      productId,
      categoryIds,
    });
    expect(res.status, res.text).toBe(200);
  };

  it('sends lost when a single write makes a rule apply to a complete product (a score row inserted)', async () => {
    const s = await setup();
    const drills = await makeCategory(s.tenant, s.catalog.catalogId, { name: 'Drills' });
    const product = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'E-1' });
    const channelId = await saveChannel(s, [
      { kind: 'field', field: 'name', languages: ['deu'] },
      { kind: 'field', field: 'description', languages: ['eng'], categoryId: drills.categoryId },
    ]);
    await dispatched(s);
    // complete in German (the only row); placed in Drills, the English rule applies and fails
    await place(s, product.productId, [drills.categoryId]);
    const events = await dispatched(s);
    expect(only(events, 'completeness.')).toEqual([
      {
        type: 'completeness.lost',
        data: {
          productId: product.productId,
          sku: 'E-1',
          channelId,
          channelName: 'Shop',
          complete: false,
          scores: { deu: 100, eng: 0 },
        },
      },
    ]);
    expect(events.map((e) => e.type)).toEqual(['product.updated', 'completeness.lost']);
    // a new product's rows are inserted one by one: it had nothing to lose, so no event
    await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'E-2', categoryIds: [drills.categoryId] });
    expect(only(await dispatched(s), 'completeness.')).toEqual([]);
    expect(await db().select().from(completenessTransitionPending)).toEqual([]);
  });

  it('sends reached when a single write removes every score row of an incomplete product', async () => {
    const s = await setup();
    const drills = await makeCategory(s.tenant, s.catalog.catalogId, { name: 'Drills' });
    const product = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'E-3', categoryIds: [drills.categoryId] });
    const channelId = await saveChannel(s, [
      { kind: 'field', field: 'description', languages: ['deu'], categoryId: drills.categoryId },
    ]);
    await dispatched(s);
    await place(s, product.productId, []); // no rule applies any more: its rows all go
    expect(only(await dispatched(s), 'completeness.')).toEqual([
      {
        type: 'completeness.reached',
        data: { productId: product.productId, sku: 'E-3', channelId, channelName: 'Shop', complete: true, scores: {} },
      },
    ]);
  });

  it("sends nothing when a write replaces an incomplete language's row by another incomplete one", async () => {
    const s = await setup();
    await enableLanguages(s.company.companyId, ['eng', 'fra']);
    const drills = await makeCategory(s.tenant, s.catalog.catalogId, { name: 'Drills' });
    const saws = await makeCategory(s.tenant, s.catalog.catalogId, { name: 'Saws' });
    const product = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'E-4', categoryIds: [drills.categoryId] });
    const res = await post(s.cookies.admin, '/api/Catalog/AddChannel', {
      name: 'Shop',
      languages: ['deu', 'eng', 'fra'],
      requirements: [
        { kind: 'field', field: 'name', languages: ['deu'] },
        { kind: 'field', field: 'description', languages: ['eng'], categoryId: drills.categoryId },
        { kind: 'field', field: 'description', languages: ['fra'], categoryId: saws.categoryId },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect((await waitForJob(s.cookies.admin, res.json.jobId)).state).toBe('succeeded');
    await dispatched(s);
    // Drills -> Saws: the English row (0) goes, a French row (0) comes, German stays at 100;
    // incomplete before and after, so no event (a row trigger saw "reached" at the delete)
    await place(s, product.productId, [saws.categoryId]);
    expect(only(await dispatched(s), 'completeness.')).toEqual([]);
    const scores = await get(s.cookies.admin, `/api/Catalog/GetCompleteness?productId=${product.productId}`);
    expect(
      scores.json.channels[0].languages.map((l: { language: string; score: number }) => [l.language, l.score]),
    ).toEqual(
      expect.arrayContaining([
        ['deu', 100],
        ['fra', 0],
      ]),
    );
    // restoring the version before the move places it in Drills again (its placements deleted,
    // then inserted): compared once for the whole restore, so again no event
    const versions = await get(s.cookies.admin, `/api/Catalog/GetHistory?elementId=${product.productId}&limit=10`);
    expect(versions.status, versions.text).toBe(200);
    const restored = await post(s.cookies.admin, '/api/Catalog/RestoreVersion', {
      departmentId: s.company.departmentId,
      elementId: product.productId,
      versionId: versions.json.items.at(-1).versionId,
    });
    expect(restored.status, restored.text).toBe(200);
    expect(only(await dispatched(s), 'completeness.')).toEqual([]);
    await place(s, product.productId, [saws.categoryId]);
    expect(only(await dispatched(s), 'completeness.')).toEqual([]);
    // completing it in French then sends one reached
    const set = await post(s.cookies.admin, '/api/Catalog/SetValue', {
      departmentId: s.company.departmentId,
      elementId: product.productId,
      field: 'description',
      value: 'Description',
      language: 'fra',
    });
    expect(set.status, set.text).toBe(200);
    expect(only(await dispatched(s), 'completeness.').map((e) => [e.type, e.data.scores])).toEqual([
      ['completeness.reached', { deu: 100, fra: 100 }],
    ]);
  });
});

describe('Webhooks: review submitted, approved, rejected', () => {
  async function reviewSetup(rule: unknown = { kind: 'any' }) {
    const s = await setup();
    const channelId = await saveChannel(s, []);
    const on = await post(s.cookies.admin, '/api/Catalog/SetChannelReview', {
      channelId,
      enabled: true,
      rule,
    });
    expect(on.status, on.text).toBe(200);
    return { ...s, channelId };
  }

  it('sends review.submitted and review.approved with the channel, the product and who acted', async () => {
    const s = await reviewSetup();
    const [a, b] = [
      await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'R-1' }),
      await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'R-2' }),
    ];
    const ids = [a.productId, b.productId];
    const submit = await post(s.cookies.admin, '/api/Catalog/SubmitForReview', {
      channelId: s.channelId,
      productIds: ids,
    });
    expect(submit.status, submit.text).toBe(200);
    const submitted = only(await dispatched(s), 'review.');
    expect(submitted).toEqual(
      [...ids].sort().map((productId) => ({
        type: 'review.submitted',
        data: {
          productId,
          sku: productId === a.productId ? 'R-1' : 'R-2',
          channelId: s.channelId,
          channelName: 'Shop',
          state: 'in_review',
          userId: s.admin.userId,
          surface: 'web',
        },
      })),
    );
    // the admin who made the products' last change may not approve them; the other admin does
    const approve = await post(s.cookies.otherAdmin, '/api/Catalog/ApproveProducts', {
      channelId: s.channelId,
      productIds: [a.productId],
    });
    expect(approve.status, approve.text).toBe(200);
    expect(only(await dispatched(s), 'review.')).toEqual([
      {
        type: 'review.approved',
        data: expect.objectContaining({ productId: a.productId, state: 'approved', userId: s.otherAdmin.userId }),
      },
    ]);
  });

  it('sends review.rejected with the comment, and nothing for a refused transition', async () => {
    const s = await reviewSetup();
    const p = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'R-9' });
    const body = { channelId: s.channelId, productIds: [p.productId] };
    expect((await post(s.cookies.admin, '/api/Catalog/SubmitForReview', body)).status).toBe(200);
    await dispatched(s);
    const reject = await post(s.cookies.otherAdmin, '/api/Catalog/RejectProducts', { ...body, comment: 'Bild fehlt' });
    expect(reject.status, reject.text).toBe(200);
    expect(only(await dispatched(s), 'review.')).toEqual([
      {
        type: 'review.rejected',
        data: {
          productId: p.productId,
          sku: 'R-9',
          channelId: s.channelId,
          channelName: 'Shop',
          state: 'draft',
          userId: s.otherAdmin.userId,
          surface: 'web',
          comment: 'Bild fehlt',
        },
      },
    ]);
    // approving a draft is a 409 and leaves no event
    const refused = await post(s.cookies.otherAdmin, '/api/Catalog/ApproveProducts', body);
    expect(refused.status, refused.text).toBe(409);
    expect(only(await dispatched(s), 'review.')).toEqual([]);
    const state = await get(s.cookies.admin, `/api/Catalog/GetReviewState?productId=${p.productId}`);
    expect(state.json.channels[0]).toMatchObject({ state: 'draft' });
  });

  /** Submits the products and has the other admin approve them (the admin made their last change). */
  async function approve(s: Awaited<ReturnType<typeof reviewSetup>>, productIds: string[]) {
    const body = { channelId: s.channelId, productIds };
    expect((await post(s.cookies.admin, '/api/Catalog/SubmitForReview', body)).status).toBe(200);
    const approved = await post(s.cookies.otherAdmin, '/api/Catalog/ApproveProducts', body);
    expect(approved.status, approved.text).toBe(200);
    await dispatched(s);
  }

  const setValue = (s: Setup, elementId: string, field: string, value: string, language?: string) =>
    post(s.cookies.admin, '/api/Catalog/SetValue', {
      departmentId: s.company.departmentId,
      elementId,
      field,
      value,
      ...(language ? { language } : {}),
    });

  it('sends review.reopened when a change matching the rule sends an approved product back, naming the change', async () => {
    const s = await reviewSetup({ kind: 'fields', fields: ['description'], languages: ['eng'] });
    const p = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'RO-1' });
    await approve(s, [p.productId]);

    // a change the rule does not name (German) leaves it approved: no review event
    expect((await setValue(s, p.productId, 'description', 'Text', 'deu')).status).toBe(200);
    expect(only(await dispatched(s), 'review.')).toEqual([]);

    expect((await setValue(s, p.productId, 'description', 'Text', 'eng')).status).toBe(200);
    const events = await dispatched(s);
    const [history] = (await get(s.cookies.admin, `/api/Catalog/GetHistory?elementId=${p.productId}&limit=1`)).json
      .items as { versionId: string }[];
    expect(only(events, 'review.')).toEqual([
      {
        type: 'review.reopened',
        data: {
          productId: p.productId,
          sku: 'RO-1',
          channelId: s.channelId,
          channelName: 'Shop',
          state: 'in_review',
          changeId: history!.versionId,
          elementId: p.productId,
          elementKind: 'product',
          userId: s.admin.userId,
          surface: 'web',
          fields: ['description'],
          languages: ['eng'],
        },
      },
    ]);
    // after the write's own product event, both ordered by the product
    expect(events.map((e) => [e.type, e.r.orderKey])).toEqual([
      ['product.updated', p.productId],
      ['review.reopened', p.productId],
    ]);
    const state = await get(s.cookies.admin, `/api/Catalog/GetReviewState?productId=${p.productId}`);
    expect(state.json.channels[0]).toMatchObject({ state: 'in_review' });
    // already in review: a further matching change moves nothing and sends no review event
    expect((await setValue(s, p.productId, 'description', 'Other', 'eng')).status).toBe(200);
    expect(only(await dispatched(s), 'review.')).toEqual([]);
  });

  it('names only the paths the rule matched, and the variant whose change sent its master back', async () => {
    const s = await reviewSetup({ kind: 'fields', fields: ['price'] });
    const master = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'RO-M' });
    const variant = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'RO-M-V', parentId: master.productId });
    await approve(s, [master.productId]);
    // one write of the variant changes its name and price; the rule names the price only
    const update = await post(s.cookies.admin, '/api/Catalog/UpdateProduct', {
      departmentId: s.company.departmentId,
      catalogId: s.catalog.catalogId,
      productId: variant.productId,
      sku: 'RO-M-V',
      name: 'Neuer Name',
      price: '9.50',
    });
    expect(update.status, update.text).toBe(200);
    const history = await get(s.cookies.admin, `/api/Catalog/GetHistory?elementId=${variant.productId}&limit=1`);
    const paths = (history.json.items[0].changes as { path: string }[]).map((c) => c.path).sort();
    expect(paths).toEqual(['name', 'price']);
    const [reopened] = only(await dispatched(s), 'review.');
    expect(reopened).toMatchObject({
      type: 'review.reopened',
      data: {
        productId: master.productId,
        sku: 'RO-M',
        elementId: variant.productId,
        elementKind: 'variant',
        fields: ['price'],
        languages: [],
      },
    });
  });

  it('writes no review.reopened for a company without an enabled endpoint', async () => {
    const s = await reviewSetup();
    const p = await makeProduct(s.tenant, s.catalog.catalogId, { sku: 'RO-9' });
    await approve(s, [p.productId]);
    const disable = await post(s.cookies.admin, '/api/Webhooks/UpdateEndpoint', {
      endpointId: s.endpoint!.endpointId,
      enabled: false,
    });
    expect(disable.status, disable.text).toBe(200);
    const before = await db().select().from(webhookOutbox).where(eq(webhookOutbox.companyId, s.company.companyId));
    expect((await setValue(s, p.productId, 'name', 'Anders')).status).toBe(200);
    const state = await get(s.cookies.admin, `/api/Catalog/GetReviewState?productId=${p.productId}`);
    expect(state.json.channels[0]).toMatchObject({ state: 'in_review' });
    expect(await db().select().from(webhookOutbox).where(eq(webhookOutbox.companyId, s.company.companyId))).toEqual(
      before,
    );
  });
});
