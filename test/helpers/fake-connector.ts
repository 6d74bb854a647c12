/**
 * An in-test shop connector for the sync engine's pool tests: it checks every request's
 * signature with the shared protocol module and implements /mappings, /inventory (NDJSON,
 * byte order, `after`, X-Inventory-Count) and /upsert (batches, replay by batchId, 422 on
 * unknown mapping ids, overload answers) over in-memory maps. Faults are switched on per test.
 */
import { compareSkus } from '../../src/sync/protocol/sku-order';
import { verifyRequest } from '../../src/sync/protocol/signing';
import { MAX_BATCH_RECORDS_HEADER, MAX_UPSERT_BODY_BYTES, type UpsertRecord } from '../../src/sync/protocol/wire';

export const FAKE_URL = 'https://shop.test/pim-connector';
export const FAKE_KEY = { keyId: 'test-key', secret: 'test-connector-secret-123' };

export interface ShopProduct {
  fingerprint: string;
  active: boolean;
  product: unknown;
}

export const MAPPINGS = {
  manufacturers: [
    { id: 'm-1', name: 'Hager' },
    { id: 'm-2', name: 'ABB' },
  ],
  units: [
    { id: 'u-1', code: 'C62' },
    { id: 'u-2', code: 'MTR' },
  ],
  taxes: [
    { id: 't-1', code: 'DE19', rate: 19 },
    { id: 't-2', code: 'DE7', rate: 7 },
  ],
};

export class FakeConnector {
  readonly products = new Map<string, ShopProduct>();
  readonly batches = new Map<string, { body: string; answer: string }>();
  /** Every request as `METHOD path`, in order. */
  readonly log: string[] = [];
  /** Every /upsert body received (also replays and refused ones). */
  readonly upserts: { batchId: string; records: UpsertRecord[]; dryRun: boolean }[] = [];
  /** Byte size of every /upsert body received, in order. */
  readonly upsertBytes: number[] = [];
  /** Largest /upsert body taken (the real connector's MAX_UPSERT_BODY_BYTES); beyond it 413. */
  maxBodyBytes = MAX_UPSERT_BODY_BYTES;
  writes = 0;
  mappingsRequests = 0;
  /** The last PUT /target body, as parsed (null: none, the reference store). */
  target: Record<string, unknown> | null = null;
  /** Every settings body POST /target/test was given (a test of unsaved settings), as parsed. */
  readonly tested: Record<string, unknown>[] = [];
  /** What POST /target/test answers: the probe, or a refusal with its status. */
  probe:
    | { name: string; languages: string[]; currencies: string[]; details: Record<string, string> }
    | { status: number; error: string } = {
    name: 'Test shop 6.7',
    languages: ['de-DE'],
    currencies: ['EUR'],
    details: {},
  };
  /** Every request fails as a network error would (the connector is down). */
  unreachable = false;
  /** Sent as X-Max-Batch-Records with /mappings (a real shop's connector does). */
  maxBatchRecords: number | null = null;
  /**
   * Answer like a connector writing into a real shop: records named in `shopRefuses` come back in
   * `failed` (200, the rest written), and a dry run lists `changes`.
   */
  remote = false;
  shopRefuses = new Map<string, { field: string; error: string }>();
  /** A dry run's `changes[].references` per SKU (how the shop would resolve references by manufacturer number). */
  resolvedReferences = new Map<string, { type: string; number: string; sku: string | null }[]>();
  faults: {
    /** Answer the next N upserts with this status and Retry-After. */
    overload?: { status: 429 | 503; count: number; retryAfter?: string };
    /** Drop the inventory's lines from this index on (while still announcing them all). */
    truncateAt?: number;
    /** Swap two lines of the inventory. */
    unsorted?: boolean;
    /** Replace this line of the inventory with broken JSON. */
    brokenAt?: number;
    /** Refuse records of these SKUs with 422. */
    refuse?: Set<string>;
  } = {};

  seed(sku: string, fingerprint: string, active = true) {
    this.products.set(sku, { fingerprint, active, product: null });
  }

  inventory(): { sku: string; fingerprint: string }[] {
    return [...this.products]
      .filter(([, p]) => p.active)
      .map(([sku, p]) => ({ sku, fingerprint: p.fingerprint }))
      .sort((a, b) => compareSkus(a.sku, b.sku));
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    if (this.unreachable) throw new TypeError('fetch failed: connection refused');
    const body = new Uint8Array(await request.arrayBuffer());
    const verified = await verifyRequest(request, body, { [FAKE_KEY.keyId]: FAKE_KEY.secret });
    const url = new URL(request.url);
    this.log.push(`${request.method} ${url.pathname}${url.search}`);
    if (!verified.ok) return Response.json({ error: verified.error }, { status: 401 });
    const path = url.pathname.replace('/pim-connector', '');
    if (path === '/mappings') return this.mappings(request);
    if (path === '/target' && request.method === 'PUT') {
      this.target = JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>;
      return Response.json({ kind: this.target.kind, hasCredentials: true });
    }
    if (path === '/target' && request.method === 'DELETE') {
      if (this.target === null) return Response.json({ error: 'no target for this key' }, { status: 404 });
      this.target = null;
      return new Response(null, { status: 204 });
    }
    if (path === '/target/test' && request.method === 'POST') {
      // With a body: settings to probe without storing them; the answer counts their lookup tables.
      const given = body.length > 0 ? (JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>) : null;
      if (given) this.tested.push(given);
      if ('status' in this.probe) return Response.json({ error: this.probe.error }, { status: this.probe.status });
      if (!given) return Response.json(this.probe);
      const { manufacturers, units, taxes } = MAPPINGS;
      const mappings = { manufacturers: manufacturers.length, units: units.length, taxes: taxes.length };
      return Response.json({ ...this.probe, mappings });
    }
    if (path === '/inventory') return this.listInventory(url.searchParams.get('after'));
    if (path === '/upsert' && request.method === 'POST') {
      this.upsertBytes.push(body.length);
      if (body.length > this.maxBodyBytes)
        return Response.json({ error: `request body larger than ${this.maxBodyBytes} bytes` }, { status: 413 });
      return this.upsert(new TextDecoder().decode(body));
    }
    return Response.json({ error: 'not found' }, { status: 404 });
  };

  private mappings(request: Request): Response {
    this.mappingsRequests++;
    const etag = '"mappings-v1"';
    const limit: Record<string, string> =
      this.maxBatchRecords === null ? {} : { [MAX_BATCH_RECORDS_HEADER]: String(this.maxBatchRecords) };
    if (request.headers.get('If-None-Match') === etag)
      return new Response(null, { status: 304, headers: { ETag: etag, ...limit } });
    return Response.json(MAPPINGS, { headers: { ETag: etag, 'Cache-Control': 'max-age=3600', ...limit } });
  }

  private listInventory(after: string | null): Response {
    let lines = this.inventory()
      .filter((l) => after === null || compareSkus(l.sku, after) > 0)
      .map((l) => JSON.stringify(l));
    const count = lines.length;
    if (this.faults.unsorted && lines.length > 2) [lines[0], lines[1]] = [lines[1]!, lines[0]!];
    if (this.faults.brokenAt !== undefined && lines.length > this.faults.brokenAt)
      lines[this.faults.brokenAt] = '{"sku": "broken';
    if (this.faults.truncateAt !== undefined) lines = lines.slice(0, this.faults.truncateAt);
    return new Response(lines.map((l) => `${l}\n`).join(''), {
      headers: { 'Content-Type': 'application/x-ndjson', 'X-Inventory-Count': String(count) },
    });
  }

  private upsert(text: string): Response {
    const overload = this.faults.overload;
    if (overload && overload.count > 0) {
      overload.count--;
      return Response.json(
        { error: 'busy' },
        { status: overload.status, headers: overload.retryAfter ? { 'Retry-After': overload.retryAfter } : {} },
      );
    }
    const request = JSON.parse(text) as { batchId: string; dryRun?: boolean; records: UpsertRecord[] };
    this.upserts.push({ batchId: request.batchId, records: request.records, dryRun: request.dryRun ?? false });
    if (request.records.length > 1000) return Response.json({ error: 'too many records' }, { status: 413 });
    const stored = this.batches.get(request.batchId);
    if (stored) {
      if (stored.body !== text)
        return Response.json({ error: 'batchId reused with a different body' }, { status: 409 });
      return new Response(stored.answer, {
        headers: { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' },
      });
    }
    const failures = request.records.flatMap((r, index) => {
      if (this.faults.refuse?.has(r.sku)) return [{ index, sku: r.sku, field: 'name', error: 'refused by the shop' }];
      if (r.op !== 'create' && !this.products.has(r.sku))
        return [{ index, sku: r.sku, field: 'sku', error: 'unknown sku' }];
      return [];
    });
    if (failures.length > 0) return Response.json({ error: 'batch refused', failures }, { status: 422 });
    const answer: Record<string, unknown> & { created: number; updated: number; deactivated: number } = {
      batchId: request.batchId,
      dryRun: request.dryRun ?? false,
      created: 0,
      updated: 0,
      deactivated: 0,
    };
    if (this.remote) {
      answer.unchanged = 0;
      if (request.dryRun)
        answer.changes = request.records.map((r) => ({
          sku: r.sku,
          op: r.op,
          fields: r.op === 'deactivate' ? [] : ['name', ...(r.product?.variants ?? []).map((v) => `variants.${v.sku}`)],
          ...(this.resolvedReferences.has(r.sku) ? { references: this.resolvedReferences.get(r.sku) } : {}),
        }));
      else answer.failed = [];
    }
    for (const [index, r] of request.records.entries()) {
      const refused = this.remote && !request.dryRun ? this.shopRefuses.get(r.sku) : undefined;
      if (refused) {
        (answer.failed as unknown[]).push({ index, sku: r.sku, ...refused });
        continue;
      }
      if (r.op === 'create') answer.created++;
      else if (r.op === 'update') answer.updated++;
      else answer.deactivated++;
      if (request.dryRun) continue;
      this.writes++;
      if (r.op === 'deactivate') this.products.get(r.sku)!.active = false;
      else this.products.set(r.sku, { fingerprint: r.fingerprint, active: true, product: r.product });
    }
    const answerText = JSON.stringify(answer);
    if (!request.dryRun) this.batches.set(request.batchId, { body: text, answer: answerText });
    return new Response(answerText, { headers: { 'Content-Type': 'application/json' } });
  }
}
