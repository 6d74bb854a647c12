import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { updateProduct } from '../src/catalog/products';
import { jobs, webhookDeliveries, webhookEndpoints } from '../src/db/schema';
import { newId } from '../src/kernel/ids';
import { historyStatements } from '../src/records/history-record';
import { RETRY_SCHEDULE_SECONDS, retryDivisorOf } from '../src/webhooks/deliver';
import { allowsPrivateTargets } from '../src/sync/protocol/url-guard';
import { sendTestEvent } from '../src/webhooks/deliveries';
import { dispatchRound, sweepDeliveries, SWEEP_AFTER_MS } from '../src/webhooks/dispatch';
import { asActor, db, makeCatalog, makeCompany, makeProduct, makeSession, makeUser } from './helpers/factories';
import { call, loginAs } from './helpers/http';
import { attempt, deliverDeps, fakeReceiver, heldQueue, makeEndpoint, RECEIVER_URL } from './helpers/webhooks';

const deliveriesOf = (endpointId: string) =>
  db()
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(webhookDeliveries.id);

/** Runs dispatch rounds until the feed is drained (a test's own dispatcher). */
async function dispatchAll(companyId: string, queue: Queue<never>) {
  for (let round = 0; round < 100; round++) if (!(await dispatchRound({ db: db(), queue }, companyId)).more) return;
  throw new Error('dispatch did not end');
}

/** A test event through the domain function and a held queue (the test runs every attempt itself). */
async function testEvent(
  tenant: { companyId: string; departmentId: string; userId: string },
  endpointId: string,
  queue: Queue<never>,
) {
  return sendTestEvent({ db: db(), queue }, { ...asActor(tenant), role: 'admin' }, endpointId);
}

async function adminSession() {
  const company = await makeCompany();
  const admin = await makeUser(company, { role: 'admin' });
  return { ...admin, cookie: await loginAs(admin.email), tenant: { ...company, userId: admin.userId } };
}

describe('Webhooks: endpoints', () => {
  it('adds an endpoint for an admin, shows its whsec_ secret once and stores it encrypted', async () => {
    const admin = await adminSession();
    const res = await call('POST', '/api/Webhooks/AddEndpoint', {
      cookie: admin.cookie,
      body: { url: 'https://erp.example.com/pim-hooks', eventTypes: ['product.updated', 'product.deleted'] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ url: 'https://erp.example.com/pim-hooks', enabled: true, disabledReason: null });
    expect(res.json.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [row] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, res.json.endpointId));
    expect(row!.secretSealed).not.toContain(res.json.secret.slice(6));
    const list = await call('GET', '/api/Webhooks/GetEndpoints', { cookie: admin.cookie });
    expect(list.json.items).toHaveLength(1);
    expect(list.json.items[0]).not.toHaveProperty('secret');
    expect(JSON.stringify(list.json)).not.toContain(res.json.secret);
  });

  it('refuses an editor with 403 and a private, loopback or link-local receiver with 400, storing nothing', async () => {
    const editor = await makeSession({ role: 'editor' });
    const refused = await call('POST', '/api/Webhooks/AddEndpoint', {
      cookie: editor.cookie,
      body: { url: 'https://erp.example.com/x' },
    });
    expect(refused.status).toBe(403);
    const admin = await adminSession();
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://[fe80::1]/hook',
      'http://localhost/hook',
      'http://metadata.internal/hook',
      'ftp://erp.example.com/hook',
      'https://user:pw@erp.example.com/hook',
      'not a url',
    ]) {
      const res = await call('POST', '/api/Webhooks/AddEndpoint', { cookie: admin.cookie, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.json.error, url).toMatch(/^url: /);
    }
    expect(await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.companyId, admin.companyId))).toEqual(
      [],
    );
  });

  it("keeps companies apart: another company's endpoint and deliveries are 404", async () => {
    const one = await adminSession();
    const two = await adminSession();
    const endpoint = await makeEndpoint(one.tenant);
    for (const [path, body] of [
      ['/api/Webhooks/UpdateEndpoint', { endpointId: endpoint.endpointId, enabled: false }],
      ['/api/Webhooks/RotateSecret', { endpointId: endpoint.endpointId }],
      ['/api/Webhooks/SendTestEvent', { endpointId: endpoint.endpointId }],
      ['/api/Webhooks/DeleteEndpoint', { endpointId: endpoint.endpointId }],
    ] as const) {
      const res = await call('POST', path, { cookie: two.cookie, body });
      expect(res.status, path).toBe(404);
    }
    const log = await call('GET', `/api/Webhooks/GetDeliveries?endpointId=${endpoint.endpointId}`, {
      cookie: two.cookie,
    });
    expect(log.status).toBe(404);
    const [row] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.endpointId));
    expect(row!.enabled).toBe(true);
  });

  it('sends a test event through the log, and redelivers it with the same webhook-id', async () => {
    const admin = await adminSession();
    const endpoint = await makeEndpoint(admin.tenant);
    const sent = await call('POST', '/api/Webhooks/SendTestEvent', {
      cookie: admin.cookie,
      body: { endpointId: endpoint.endpointId },
    });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json).toMatchObject({
      eventType: 'webhook.test',
      status: 'pending',
      messageId: expect.stringMatching(/^msg_/),
    });
    expect(sent.json.payload).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.endpointId } });
    const log = await call('GET', `/api/Webhooks/GetDeliveries?endpointId=${endpoint.endpointId}`, {
      cookie: admin.cookie,
    });
    expect(log.json.items.map((d: any) => d.deliveryId)).toEqual([sent.json.deliveryId]);
    await db()
      .update(webhookDeliveries)
      .set({ status: 'failed' })
      .where(eq(webhookDeliveries.id, sent.json.deliveryId));
    const again = await call('POST', '/api/Webhooks/Redeliver', {
      cookie: admin.cookie,
      body: { deliveryId: sent.json.deliveryId },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.json).toMatchObject({ status: 'pending', attempts: 0, messageId: sent.json.messageId });
  });
});

describe('Webhooks: delivery', () => {
  it('delivers product changes signed per Standard Webhooks (verified with the standardwebhooks library)', async () => {
    const admin = await adminSession();
    const endpoint = await makeEndpoint(admin.tenant);
    const catalog = await makeCatalog(admin.tenant);
    const product = await makeProduct(admin.tenant, catalog.catalogId, { name: 'Hook me', sku: 'WH-1' });
    const { queue, sent } = heldQueue();
    await dispatchAll(admin.companyId, queue as never);
    const rows = await deliveriesOf(endpoint.endpointId);
    expect(rows.map((r) => r.eventType)).toEqual(['catalog.created', 'product.created']);
    expect(sent.map((m) => m.id)).toEqual(rows.map((r) => r.id));

    const receiver = fakeReceiver();
    for (const row of rows) expect(await attempt(deliverDeps(queue, receiver.fetch), row.id)).toBe('delivered');
    const wh = new Webhook(endpoint.secret);
    const verified = receiver.received.map((r) => wh.verify(r.body, r.headers) as any);
    expect(verified[1]).toMatchObject({
      type: 'product.created',
      data: { elementId: product.productId, elementKind: 'product', fields: expect.arrayContaining(['name', 'sku']) },
    });
    expect(receiver.received[1]!.headers['webhook-id']).toBe(rows[1]!.messageId);
    expect(receiver.received[1]!.url).toBe(RECEIVER_URL);
    // a tampered body fails verification
    expect(() =>
      wh.verify(
        receiver.received[1]!.body.replace('product.created', 'product.deleted'),
        receiver.received[1]!.headers,
      ),
    ).toThrow();
    const [done] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, rows[1]!.id));
    expect(done).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 200 });
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const admin = await adminSession();
    const endpoint = await makeEndpoint(admin.tenant);
    const rotated = await call('POST', '/api/Webhooks/RotateSecret', {
      cookie: admin.cookie,
      body: { endpointId: endpoint.endpointId },
    });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.json.secret).not.toBe(endpoint.secret);
    const until = Date.parse(rotated.json.previousSecretExpiresAt) - Date.now();
    expect(until).toBeGreaterThan(23.9 * 3600_000);
    const { queue } = heldQueue();
    const receiver = fakeReceiver();
    const test = async () => {
      const event = await testEvent(admin.tenant, endpoint.endpointId, queue as never);
      await attempt(deliverDeps(queue, receiver.fetch), event.deliveryId);
      return receiver.received.at(-1)!;
    };
    const during = await test();
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(endpoint.secret).verify(during.body, during.headers)).toBeTruthy();
    expect(new Webhook(rotated.json.secret).verify(during.body, during.headers)).toBeTruthy();

    await db()
      .update(webhookEndpoints)
      .set({ previousSecretExpiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(webhookEndpoints.id, endpoint.endpointId));
    const after = await test();
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(new Webhook(rotated.json.secret).verify(after.body, after.headers)).toBeTruthy();
    expect(() => new Webhook(endpoint.secret).verify(after.body, after.headers)).toThrow();
  });

  it('shortens the retry schedule only for a local test server (WEBHOOK_RETRY_DIVISOR with ALLOW_PRIVATE_TARGETS)', async () => {
    // never in production: without the local-only ALLOW_PRIVATE_TARGETS the var changes nothing
    expect(retryDivisorOf({ WEBHOOK_RETRY_DIVISOR: '60' })).toBe(1);
    expect(retryDivisorOf({ WEBHOOK_RETRY_DIVISOR: '60', ALLOW_PRIVATE_TARGETS: 'false' })).toBe(1);
    expect(retryDivisorOf({ ALLOW_PRIVATE_TARGETS: 'true' })).toBe(1);
    for (const bad of ['0', '1', '-5', '2.5', 'x', '3601'])
      expect(retryDivisorOf({ WEBHOOK_RETRY_DIVISOR: bad, ALLOW_PRIVATE_TARGETS: 'true' })).toBe(1);
    expect(retryDivisorOf({ WEBHOOK_RETRY_DIVISOR: '60', ALLOW_PRIVATE_TARGETS: 'true' })).toBe(60);

    const admin = await adminSession();
    const endpoint = await makeEndpoint(admin.tenant);
    const { queue, sent } = heldQueue();
    const id = (await testEvent(admin.tenant, endpoint.endpointId, queue as never)).deliveryId;
    sent.length = 0;
    let clock = Date.now();
    const receiver = fakeReceiver(() => new Response('down', { status: 503 }));
    const deps = { ...deliverDeps(queue, receiver.fetch, () => new Date(clock)), retryDivisor: 60 };
    for (let i = 0; i < 3; i++) {
      expect(await attempt(deps, id)).toBe('retry');
      const [row] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
      clock = Date.parse(row!.nextAttemptAt);
    }
    // 5 s, 5 min, 30 min divided by 60 (at least a second)
    expect(sent.map((m) => m.delaySeconds)).toEqual([1, 5, 30]);
  });

  it('retries 5xx, timeouts, redirects and huge answers with backoff for more than 24 hours, then disables the endpoint with a notice', async () => {
    const admin = await adminSession();
    const endpoint = await makeEndpoint(admin.tenant);
    const { queue, sent } = heldQueue();
    const id = (await testEvent(admin.tenant, endpoint.endpointId, queue as never)).deliveryId;
    sent.length = 0;
    let clock = Date.now();
    const huge = () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            controller.enqueue(new Uint8Array(64 * 1024).fill(65)); // never ends: only a snippet may be read
          },
        }),
        { status: 503 },
      );
    const answers = [
      () => new Response('boom', { status: 500 }),
      () => {
        throw new DOMException('The operation timed out', 'TimeoutError');
      },
      () => new Response(null, { status: 302, headers: { Location: 'http://127.0.0.1/' } }),
      huge,
      () => new Response('nope', { status: 404 }),
      () => new Response('bad gateway', { status: 502 }),
      () => new Response('still down', { status: 500 }),
      () => new Response('last', { status: 500 }),
    ];
    let call_ = 0;
    const receiver = fakeReceiver(() => answers[call_++]!());
    const deps = deliverDeps(queue, receiver.fetch, () => new Date(clock));
    const outcomes: string[] = [];
    for (let i = 0; i < answers.length; i++) {
      outcomes.push(await attempt(deps, id));
      const [row] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
      if (row!.status === 'pending') clock = Date.parse(row!.nextAttemptAt);
    }
    expect(outcomes).toEqual(['retry', 'retry', 'retry', 'retry', 'retry', 'retry', 'retry', 'failed']);
    expect(sent.map((m) => m.delaySeconds)).toEqual([...RETRY_SCHEDULE_SECONDS]);
    expect(RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * 3600);
    expect(receiver.received).toHaveLength(8);
    // the redirect was not followed: only the receiver's URL was ever called
    expect(new Set(receiver.received.map((r) => r.url))).toEqual(new Set([RECEIVER_URL]));
    const [row] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    const log = JSON.parse(row!.log);
    expect(row).toMatchObject({ status: 'failed', attempts: 8, lastStatus: 500 });
    expect(log.map((a: any) => a.status)).toEqual([500, null, 302, 503, 404, 502, 500, 500]);
    expect(log[1].error).toBe('timed out');
    expect(log[2].error).toMatch(/^redirect not followed/);
    expect(log[3].error.length).toBeLessThan(300);

    const endpoints = await call('GET', '/api/Webhooks/GetEndpoints', { cookie: admin.cookie });
    expect(endpoints.json.items[0]).toMatchObject({
      enabled: false,
      disabledReason: expect.stringMatching(/more than 24 hours/),
    });
    // a disabled endpoint gets nothing: a redeliver is refused until it is enabled again
    const refused = await call('POST', '/api/Webhooks/Redeliver', { cookie: admin.cookie, body: { deliveryId: id } });
    expect(refused.status).toBe(409);
    const enabled = await call('POST', '/api/Webhooks/UpdateEndpoint', {
      cookie: admin.cookie,
      body: { endpointId: endpoint.endpointId, enabled: true },
    });
    expect(enabled.json).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('delivers in order per product without holding up other products', async () => {
    const admin = await adminSession();
    const actor = asActor(admin.tenant);
    const endpoint = await makeEndpoint(admin.tenant, { eventTypes: ['product.created', 'product.updated'] });
    const catalog = await makeCatalog(admin.tenant);
    const slow = await makeProduct(admin.tenant, catalog.catalogId, { name: 'Slow' });
    const { queue } = heldQueue();
    await dispatchAll(admin.companyId, queue as never);
    await updateProduct(db(), actor, {
      departmentId: admin.departmentId,
      catalogId: catalog.catalogId,
      productId: slow.productId,
      name: 'Slow 2',
    });
    const other = await makeProduct(admin.tenant, catalog.catalogId, { name: 'Other' });
    await dispatchAll(admin.companyId, queue as never);
    const [slowCreated, slowUpdated, otherCreated] = await deliveriesOf(endpoint.endpointId);
    expect([slowCreated!.orderKey, slowUpdated!.orderKey, otherCreated!.orderKey]).toEqual([
      slow.productId,
      slow.productId,
      other.productId,
    ]);
    const receiver = fakeReceiver((r) => new Response(null, { status: r.body.includes(slow.productId) ? 500 : 204 }));
    const deps = deliverDeps(queue, receiver.fetch);
    expect(await attempt(deps, slowCreated!.id)).toBe('retry');
    expect(await attempt(deps, slowUpdated!.id)).toBe('waiting');
    expect(await attempt(deps, otherCreated!.id)).toBe('delivered');
    expect(receiver.received.map((r) => JSON.parse(r.body).data.elementId)).toEqual([slow.productId, other.productId]);
  });

  it('batches 1,000 changes of one import per product: bounded deliveries, every change carried in order', async () => {
    const admin = await adminSession();
    const endpoint = await makeEndpoint(admin.tenant);
    const products = Array.from({ length: 10 }, () => newId());
    const catalogId = newId();
    const actor = { ...asActor(admin.tenant), surface: 'job' as const, jobId: newId() };
    for (let round = 0; round < 100; round++) {
      const { statements } = historyStatements(
        db(),
        actor,
        products.map((elementId) => ({
          elementId,
          kind: 'product' as const,
          place: { catalogId, masterId: elementId },
          before: { price: String(round) },
          after: { price: String(round + 1) },
        })),
      );
      await db().batch(statements as never);
    }
    const { queue } = heldQueue();
    await dispatchAll(admin.companyId, queue as never);
    const rows = await deliveriesOf(endpoint.endpointId);
    // 1,000 feed rows in rounds of 500: at most one delivery per product per round
    expect(rows.length).toBeLessThanOrEqual(20);
    for (const productId of products) {
      const mine = rows.filter((r) => r.orderKey === productId).map((r) => JSON.parse(r.payload));
      const changes = mine.flatMap((p) => p.data.changes);
      expect(changes).toHaveLength(100);
      expect(mine.every((p) => p.type === 'product.updated' && p.data.fields.join() === 'price')).toBe(true);
      expect(changes.map((c: any) => c.changeId)).toEqual([...changes.map((c: any) => c.changeId)].sort());
    }
  });

  it("fans out only the company's own changes, and starts a new endpoint at the end of the feed", async () => {
    const one = await adminSession();
    const two = await adminSession();
    await makeCatalog(one.tenant, { name: 'Before the endpoint' });
    const endpoint = await makeEndpoint(one.tenant);
    await makeCatalog(two.tenant, { name: 'Other company' });
    await makeCatalog(one.tenant, { name: 'After the endpoint' });
    const { queue } = heldQueue();
    await dispatchAll(one.companyId, queue as never);
    await dispatchAll(two.companyId, queue as never);
    const rows = await deliveriesOf(endpoint.endpointId);
    expect(rows.map((r) => JSON.parse(r.payload).data.changes.length)).toEqual([1]);
    expect(rows[0]!.payload).not.toContain('Other company');
    expect(rows.every((r) => r.companyId === one.companyId)).toBe(true);
  });

  it('sends job ends from the outbox written with the job state, and sweeps a delivery whose message was lost', async () => {
    const admin = await adminSession();
    const endpoint = await makeEndpoint(admin.tenant, { eventTypes: ['import.finished', 'import.failed'] });
    const jobId = newId();
    await db().insert(jobs).values({
      id: jobId,
      companyId: admin.companyId,
      departmentId: admin.departmentId,
      userId: admin.userId,
      kind: 'import',
      state: 'running',
      params: {},
    });
    const { queue, sent } = heldQueue();
    await dispatchAll(admin.companyId, queue as never); // the dispatcher starts at the end of the outbox
    await db()
      .update(jobs)
      .set({ state: 'succeeded', summary: { created: 3 } })
      .where(eq(jobs.id, jobId));
    await dispatchAll(admin.companyId, queue as never);
    const [row] = await deliveriesOf(endpoint.endpointId);
    expect(JSON.parse(row!.payload)).toMatchObject({
      type: 'import.finished',
      data: { jobId, kind: 'import', state: 'succeeded', summary: { created: 3 } },
    });
    // the queue message is lost: the sweep sends it again once it is overdue
    sent.length = 0;
    expect(await sweepDeliveries({ db: db(), queue: queue as never }, admin.companyId)).toBe(0);
    const later = new Date(Date.now() + SWEEP_AFTER_MS + 1000);
    expect(await sweepDeliveries({ db: db(), queue: queue as never, now: () => later }, admin.companyId)).toBe(1);
    expect(sent.map((m) => m.id)).toEqual([row!.id]);
    const pending = await db()
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, row!.id), eq(webhookDeliveries.status, 'pending')));
    expect(pending).toHaveLength(1);
  });

  it('does not call a receiver that the SSRF rule refuses at send time', async () => {
    const admin = await adminSession();
    const endpoint = await makeEndpoint(admin.tenant);
    await db()
      .update(webhookEndpoints)
      .set({ url: 'http://10.0.0.5/hook' })
      .where(eq(webhookEndpoints.id, endpoint.endpointId));
    const receiver = fakeReceiver();
    const { queue } = heldQueue();
    const event = await testEvent(admin.tenant, endpoint.endpointId, queue as never);
    expect(await attempt(deliverDeps(queue, receiver.fetch), event.deliveryId)).toBe('retry');
    expect(receiver.received).toEqual([]);
    const [row] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, event.deliveryId));
    expect(row!.lastError).toMatch(/^not sent: .*private/);
    expect(allowsPrivateTargets(env.ALLOW_PRIVATE_TARGETS)).toBe(false);
  });
});
