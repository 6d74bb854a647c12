import { dbNow } from '../kernel/clock';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { syncConnections } from '../db/schema';
import { assertDepartment } from '../db/scope';
import { findConnection } from './connections';
import { ConnectorError, fetchMappings, type Fetcher } from './connector-client';
import { decryptSecret } from './secret-box';
import type { Caller } from '../kernel/caller';

/**
 * `Sync/TestConnection`: one signed GET /mappings, reported as found. A wrong secret shows as
 * `{ok: false, status: 401}`; an unreachable connector as status 0. A successful answer also
 * refreshes the mappings cache, so the next run starts from it.
 */
export async function testConnection(
  deps: { db: Database; fetcher: Fetcher; encryptionKey: string | undefined },
  tenant: Caller,
  input: { departmentId: string; connectionId: string },
) {
  await assertDepartment(deps.db, tenant, input.departmentId);
  const connection = await findConnection(deps.db, tenant, input.connectionId, input.departmentId);
  const secret = await decryptSecret(deps.encryptionKey, connection.id, connection.secretCiphertext);
  const target = { connectorUrl: connection.connectorUrl, keyId: connection.keyId, secret };
  try {
    const result = await fetchMappings(deps.fetcher, target, null);
    const mappings = result.mappings!;
    await deps.db
      .update(syncConnections)
      .set({ mappings, mappingsEtag: result.etag, mappingsFetchedAt: dbNow })
      .where(eq(syncConnections.id, connection.id));
    return {
      ok: true,
      status: 200,
      mappings: {
        manufacturers: mappings.manufacturers.length,
        units: mappings.units.length,
        taxes: mappings.taxes.length,
      },
    };
  } catch (err) {
    if (err instanceof ConnectorError) {
      const status = Number(/HTTP (\d{3})/.exec(err.message)?.[1] ?? 200);
      return { ok: false, status, mappings: null, error: err.message };
    }
    return {
      ok: false,
      status: 0,
      mappings: null,
      error: `the connector could not be reached: ${(err as Error)?.message ?? 'network error'}`.slice(0, 300),
    };
  }
}
