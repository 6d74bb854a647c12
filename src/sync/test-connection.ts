import { z } from 'zod';
import type { Database } from '../db/client';
import { assertDepartment, findCatalog } from '../db/scope';
import { findConnection } from './connections';
import { targetBodyOf } from './connection-shop';
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
import type { TestConnectionOut } from './sync.schemas';

const probeSchema = z.object({
  name: z.string(),
  languages: z.array(z.string()),
  currencies: z.array(z.string()),
  details: z.record(z.string(), z.string()),
});

/** A refusal the test reports with the connector's status and its reason, as said. */
class TestRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** POST /target/test: the shop's own answer, or its plain reason (the connector's 502 says "the shop refused: ..."). */
async function probeShop(fetcher: Fetcher, target: ConnectorTarget): Promise<ShopProbe> {
  const response = await connectorFetch(fetcher, target, 'POST', '/target/test');
  if (response.status !== 200) {
    const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
    const reason = typeof body?.error === 'string' ? body.error.slice(0, 300) : `HTTP ${response.status}`;
    throw new TestRefusal(response.status, reason);
  }
  const parsed = probeSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new TestRefusal(502, 'the connector answered POST /target/test with an unexpected body');
  return parsed.data;
}

/**
 * `Sync/TestConnection`. With a shop: PUT /target (its settings), POST /target/test (the shop's
 * name, languages, currencies) and the warnings of what a run would lose, then GET /mappings.
 * Without: the reset of the key's target if one is pending (target-reset.ts), then the signed
 * GET /mappings. A wrong secret shows as `{ok: false, status: 401}`,
 * an unreachable connector as status 0, a shop that refused as 502 with its reason. A
 * successful answer also refreshes the mappings cache, so the next run starts from it.
 */
export async function testConnection(
  deps: { db: Database; fetcher: Fetcher; encryptionKey: string | undefined },
  tenant: Caller,
  input: { departmentId: string; connectionId: string },
): Promise<z.infer<typeof TestConnectionOut>> {
  await assertDepartment(deps.db, tenant, input.departmentId);
  const connection = await findConnection(deps.db, tenant, input.connectionId, input.departmentId);
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
      probe = await probeShop(deps.fetcher, target);
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
    if (err instanceof TestRefusal)
      return withShop({ ok: false, status: err.status, mappings: null, error: err.message }, null);
    if (err instanceof ConnectorError) {
      const status = Number(/HTTP (\d{3})/.exec(err.message)?.[1] ?? 200);
      return withShop({ ok: false, status, mappings: null, error: err.message }, null);
    }
    return withShop(
      {
        ok: false,
        status: 0,
        mappings: null,
        error: `the connector could not be reached: ${(err as Error)?.message ?? 'network error'}`.slice(0, 300),
      },
      null,
    );
  }
}
