import { z } from 'zod';
import type { Database } from '../db/client';
import { assertDepartment, findCatalog } from '../db/scope';
import { assertAdmin } from '../accounts/admin-only';
import { assertConnectorUrl, findConnection, type ConnectionRow } from './connections';
import { shopColumns, targetBodyOf } from './connection-shop';
import { sendPendingReset } from './target-reset';
import {
  connectorFetch,
  ConnectorError,
  fetchMappings,
  putTarget,
  storeMappings,
  type ConnectorTarget,
  type Fetcher,
} from './connector-client';
import { fillMapping } from './protocol/target';
import { decryptSecret } from './secret-box';
import { shopWarnings, type ShopProbe } from './shop-warnings';
import type { Caller } from '../kernel/caller';
import { newId } from '../kernel/ids';
import type { ShopInput, TestConnectionInput, TestConnectionOut } from './sync.schemas';
import { assertSyncInScope } from './start-sync';

const probeSchema = z.object({
  name: z.string(),
  languages: z.array(z.string()),
  currencies: z.array(z.string()),
  details: z.record(z.string(), z.string()),
});
const countsSchema = z.object({ manufacturers: z.number().int(), units: z.number().int(), taxes: z.number().int() });
/** The answer to a probe of given settings: the counts of that shop's lookup tables come with it. */
const givenProbeSchema = probeSchema.extend({ mappings: countsSchema });

/** A refusal the test reports with the connector's status and its reason, as said. */
class TestRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * POST /target/test: the shop's own answer, or its plain reason (the connector's 502 says "the
 * shop refused: ...", its 400 names a setting it refuses, such as a URL the SSRF rule blocks).
 * With `settings` the connector probes those and stores nothing.
 */
async function probeShop<S extends z.ZodType>(
  fetcher: Fetcher,
  target: ConnectorTarget,
  schema: S,
  settings?: string,
): Promise<z.infer<S>> {
  const response = await connectorFetch(fetcher, target, 'POST', '/target/test', settings ? { body: settings } : {});
  if (response.status !== 200) {
    const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
    const reason = typeof body?.error === 'string' ? body.error.slice(0, 300) : `HTTP ${response.status}`;
    throw new TestRefusal(response.status, reason);
  }
  const parsed = schema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new TestRefusal(502, 'the connector answered POST /target/test with an unexpected body');
  return parsed.data;
}

/** What went wrong, as TestConnection answers it: the connector's status and reason, 0 when unreachable. */
function failureOf(err: unknown): { ok: false; status: number; mappings: null; error: string } {
  if (err instanceof TestRefusal) return { ok: false, status: err.status, mappings: null, error: err.message };
  if (err instanceof ConnectorError) {
    const status = Number(/HTTP (\d{3})/.exec(err.message)?.[1] ?? 200);
    return { ok: false, status, mappings: null, error: err.message };
  }
  const reason = (err as Error)?.message ?? 'network error';
  return { ok: false, status: 0, mappings: null, error: `the connector could not be reached: ${reason}`.slice(0, 300) };
}

/** What a test calls the connector with; `allowPrivate` is the Worker var ALLOW_PRIVATE_TARGETS (development and tests). */
export interface TestDeps {
  db: Database;
  fetcher: Fetcher;
  encryptionKey: string | undefined;
  allowPrivate?: boolean;
}

/**
 * The connector a test of edited settings calls: the URL, key id and secret as edited where
 * given, else the saved connection's (the schema requires all three without one). An edited URL
 * passes the SSRF rule first (url-guard.ts): an unsaved test must not make the PIM call an
 * address on its own network. The saved secret is decrypted only when no new one is given.
 */
async function editedTarget(
  deps: TestDeps,
  connection: ConnectionRow | null,
  input: TestConnectionInput,
): Promise<ConnectorTarget> {
  if (input.connectorUrl !== undefined) assertConnectorUrl(input.connectorUrl, deps.allowPrivate ?? false);
  const secret =
    input.secret ?? (await decryptSecret(deps.encryptionKey, connection!.id, connection!.secretCiphertext));
  return {
    connectorUrl: input.connectorUrl ?? connection!.connectorUrl,
    keyId: input.keyId ?? connection!.keyId,
    secret,
  };
}

/**
 * The test of settings as edited, before they are saved (admin only, as saving them is): the
 * shop, and the connector URL, key id, secret and catalog where the form changed them, also of
 * a connection not saved yet. The shop follows UpdateConnection's rules (shopColumns: a
 * credential set left out is the stored one of the same kind; a new connection has none), sent
 * to the connector as POST /target/test with the settings as body, which probes that shop
 * without storing it. Nothing is stored here either: not the settings, not the mappings (the
 * cache holds the saved shop's), and the connector's target stays as it was. The warnings judge
 * the edited catalog's languages.
 */
async function testUnsavedShop(
  deps: TestDeps,
  tenant: Caller,
  input: TestConnectionInput & { shop: ShopInput },
): Promise<z.infer<typeof TestConnectionOut>> {
  const connection = input.connectionId
    ? await findConnection(deps.db, tenant, input.connectionId, input.departmentId)
    : null;
  const catalog = await findCatalog(deps.db, tenant, input.catalogId ?? connection!.catalogId, input.departmentId);
  const target = await editedTarget(deps, connection, input);
  // shopColumns is the one home of the credential rule (given: complete; left out: the stored
  // ones of the same kind); its sealed credentials are opened again by targetBodyOf, so the body
  // is built as a run builds it. Neither result is written anywhere; a connection not saved yet
  // seals them under an id of this call only.
  const sealingId = connection?.id ?? newId();
  const columns = await shopColumns(deps.encryptionKey, sealingId, input.shop, connection);
  const shop = columns.shop!;
  const settings = await targetBodyOf(deps.encryptionKey, {
    id: sealingId,
    shop,
    shopCredentialsCiphertext: columns.shopCredentialsCiphertext ?? null,
  });
  try {
    const { mappings, ...probe } = await probeShop(deps.fetcher, target, givenProbeSchema, settings!.body);
    const warnings = shopWarnings(catalog, fillMapping(shop.kind, shop.mapping), probe);
    return { ok: true, status: 200, mappings, shop: probe, warnings };
  } catch (err) {
    return { ...failureOf(err), shop: null };
  }
}

/**
 * `Sync/TestConnection`. With a shop: PUT /target (its settings), POST /target/test (the shop's
 * name, languages, currencies) and the warnings of what a run would lose, then GET /mappings.
 * Without: the reset of the key's target if one is pending (target-reset.ts), then the signed
 * GET /mappings. A wrong secret shows as `{ok: false, status: 401}`,
 * an unreachable connector as status 0, a shop that refused as 502 with its reason. A
 * successful answer also refreshes the mappings cache, so the next run starts from it.
 * With `shop`, the settings as edited (connector fields too) are tested instead and nothing is
 * stored (testUnsavedShop).
 */
export async function testConnection(
  deps: TestDeps,
  tenant: Caller,
  input: TestConnectionInput,
): Promise<z.infer<typeof TestConnectionOut>> {
  if (input.shop) assertAdmin(tenant);
  await assertDepartment(deps.db, tenant, input.departmentId);
  if (input.shop) return testUnsavedShop(deps, tenant, { ...input, shop: input.shop });
  // The schema requires connectionId without shop settings.
  const connection = await findConnection(deps.db, tenant, input.connectionId!, input.departmentId);
  // it pushes the shop's settings and a pending reset: only a member who may run the sync tests it
  assertSyncInScope(tenant, connection);
  const secret = await decryptSecret(deps.encryptionKey, connection.id, connection.secretCiphertext);
  const target = { connectorUrl: connection.connectorUrl, keyId: connection.keyId, secret };
  const shop = await targetBodyOf(deps.encryptionKey, connection);
  const catalog = shop ? await findCatalog(deps.db, tenant, connection.catalogId) : null;
  const withShop = (value: z.infer<typeof TestConnectionOut>, probe: ShopProbe | null, warnings?: string[]) =>
    shop ? { ...value, shop: probe, ...(warnings ? { warnings } : {}) } : value;
  try {
    let probe: ShopProbe | null = null;
    let warnings: string[] | undefined;
    if (shop && connection.shop && catalog) {
      await putTarget(deps.fetcher, target, shop.body);
      probe = await probeShop(deps.fetcher, target, probeSchema);
      warnings = shopWarnings(catalog, fillMapping(connection.shop.kind, connection.shop.mapping), probe);
    } else if (!shop) {
      await sendPendingReset(deps, connection, target);
    }
    const result = await fetchMappings(deps.fetcher, target, null);
    const mappings = result.mappings!;
    await storeMappings(deps.db, connection.id, { ...result, mappings }, new Date().toISOString());
    return withShop(
      {
        ok: true,
        status: 200,
        mappings: {
          manufacturers: mappings.manufacturers.length,
          units: mappings.units.length,
          taxes: mappings.taxes.length,
        },
      },
      probe,
      warnings,
    );
  } catch (err) {
    return withShop(failureOf(err), null);
  }
}
