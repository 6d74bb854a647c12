import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { syncConnections } from '../db/schema';
import { AppError } from '../kernel/app-error';
import { signRequest, pathWithQueryOf } from './protocol/signing';
import { MAX_BATCH_RECORDS, MAX_BATCH_RECORDS_HEADER, mappingsSchema, type Mappings } from './protocol/wire';

type ConnectionRow = typeof syncConnections.$inferSelect;

/** `fetch` as the sync uses it; tests and the benchmark hand in their own. */
export type Fetcher = (request: Request) => Promise<Response>;

/** Where and as whom the PIM calls one connector (the secret decrypted for this run only). */
export interface ConnectorTarget {
  connectorUrl: string;
  keyId: string;
  secret: string;
}

/** How long cached mappings are used without asking the connector again (docs/spec.md part 8: about 1 h). */
const MAPPINGS_TTL_MS = 3600_000;

/** A connector answer the run cannot go on from (wrong secret, bad body, ...): fails the run with this message. */
export class ConnectorError extends AppError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/**
 * One signed request to a connector. `path` is relative to the connector URL, which may carry
 * a path prefix: the signature covers the full path as sent (SYNC-PROTOCOL "Signing").
 */
export async function connectorFetch(
  fetcher: Fetcher,
  target: ConnectorTarget,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: { body?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  const url = new URL(target.connectorUrl.replace(/\/+$/, '') + path);
  const signed = await signRequest({
    keyId: target.keyId,
    secret: target.secret,
    method,
    pathWithQuery: pathWithQueryOf(url),
    body: options.body ?? '',
  });
  const headers = new Headers({ ...options.headers, ...signed });
  if (options.body !== undefined) headers.set('Content-Type', 'application/json');
  return fetcher(new Request(url, { method, headers, body: options.body, signal: options.signal }));
}

/** A short, safe description of an unexpected connector answer (its `{error}` if it has one). */
export async function describeFailure(response: Response): Promise<string> {
  let detail = '';
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body?.error === 'string') detail = `: ${body.error.slice(0, 300)}`;
  } catch {
    // Not JSON: the status says enough.
  }
  return `HTTP ${response.status}${detail}`;
}

/**
 * Runs a connector call, retrying network errors (not HTTP answers) with backoff; after the
 * last try the run fails with a message that names the call.
 */
export async function withNetworkRetries<T>(
  sleep: (ms: number) => Promise<void>,
  what: string,
  call: () => Promise<T>,
  tries = 4,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (attempt >= tries)
        throw new ConnectorError(
          `the connector could not be reached (${what}): ${String((err as Error)?.message ?? err).slice(0, 200)}`,
        );
      await sleep(1000 * 2 ** (attempt - 1));
    }
  }
}

/** X-Max-Batch-Records as a whole number from 1 to MAX_BATCH_RECORDS; null when absent or unreadable. */
function maxBatchRecordsOf(response: Response): number | null {
  const value = Number(response.headers.get(MAX_BATCH_RECORDS_HEADER) ?? '');
  return Number.isInteger(value) && value >= 1 ? Math.min(value, MAX_BATCH_RECORDS) : null;
}

/**
 * Fetches /mappings, with `If-None-Match` when an ETag is known, and the records per batch the
 * shop asks for (X-Max-Batch-Records, docs/shops.md). Network errors propagate.
 */
export async function fetchMappings(fetcher: Fetcher, target: ConnectorTarget, etag: string | null) {
  const response = await connectorFetch(fetcher, target, 'GET', '/mappings', {
    headers: etag ? { 'If-None-Match': etag } : {},
  });
  const maxBatchRecords = maxBatchRecordsOf(response);
  if (response.status === 304 && etag) return { status: 304 as const, etag, mappings: null, maxBatchRecords };
  if (response.status !== 200)
    throw new ConnectorError(`the connector refused GET /mappings (${await describeFailure(response)})`);
  const parsed = mappingsSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new ConnectorError('the connector answered GET /mappings with an unexpected body');
  return { status: 200 as const, etag: response.headers.get('ETag'), mappings: parsed.data, maxBatchRecords };
}

/** The mappings a run maps through, and the most records one POST /upsert of it may carry. */
export interface RunMappings {
  mappings: Mappings;
  maxBatchRecords: number;
}

/**
 * The connector's mappings for a run: the cached copy while it is younger than an hour,
 * otherwise revalidated with the stored ETag (304 keeps the copy) or replaced. The batch limit
 * is cached with them (a 304 without the header keeps the cached one).
 */
export async function cachedMappings(
  deps: { db: Database; fetcher: Fetcher; sleep: (ms: number) => Promise<void>; now?: () => number },
  connection: ConnectionRow,
  target: ConnectorTarget,
): Promise<RunMappings> {
  const now = deps.now?.() ?? Date.now();
  const cached = connection.mappings as Mappings | null;
  const fetchedAt = connection.mappingsFetchedAt ? Date.parse(connection.mappingsFetchedAt) : 0;
  if (cached && now - fetchedAt < MAPPINGS_TTL_MS)
    return { mappings: cached, maxBatchRecords: connection.mappingsMaxBatchRecords ?? MAX_BATCH_RECORDS };
  const result = await withNetworkRetries(deps.sleep, 'GET /mappings', () =>
    fetchMappings(deps.fetcher, target, cached ? connection.mappingsEtag : null),
  );
  const mappings = result.mappings ?? cached!;
  const maxBatchRecords = result.maxBatchRecords ?? (result.status === 304 ? connection.mappingsMaxBatchRecords : null);
  await storeMappings(deps.db, connection.id, { ...result, mappings, maxBatchRecords }, new Date(now).toISOString());
  return { mappings, maxBatchRecords: maxBatchRecords ?? MAX_BATCH_RECORDS };
}

/** Caches a /mappings answer on the connection. */
export async function storeMappings(
  db: Database,
  connectionId: string,
  result: { mappings: Mappings; etag: string | null; maxBatchRecords: number | null },
  fetchedAt: string,
): Promise<void> {
  await db
    .update(syncConnections)
    .set({
      mappings: result.mappings,
      mappingsEtag: result.etag,
      mappingsFetchedAt: fetchedAt,
      mappingsMaxBatchRecords: result.maxBatchRecords,
    })
    .where(eq(syncConnections.id, connectionId));
}

/**
 * PUT /target: points the connector's key at the connection's shop (docs/shops.md). Network
 * errors propagate; a refusal is a ConnectorError naming the connector's reason.
 */
export async function putTarget(fetcher: Fetcher, target: ConnectorTarget, body: string): Promise<void> {
  const response = await connectorFetch(fetcher, target, 'PUT', '/target', { body });
  if (response.status !== 200)
    throw new ConnectorError(`the connector refused the shop's settings (${await describeFailure(response)})`);
  await response.body?.cancel().catch(() => undefined);
}

/**
 * DELETE /target: points the connector's key back at its reference store (docs/shops.md). 204,
 * and 404 (no target to remove), are done; any other answer is a ConnectorError naming the
 * connector's reason. Network errors and an expired `signal` propagate.
 */
export async function deleteTarget(fetcher: Fetcher, target: ConnectorTarget, signal?: AbortSignal): Promise<void> {
  const response = await connectorFetch(fetcher, target, 'DELETE', '/target', { signal });
  if (response.status !== 204 && response.status !== 404)
    throw new ConnectorError(`the connector refused to reset its target (${await describeFailure(response)})`);
  await response.body?.cancel().catch(() => undefined);
}
