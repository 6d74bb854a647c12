import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../src/db/client';
import { catalogs, syncConnections } from '../../src/db/schema';
import { addConnection } from '../../src/sync/connections';
import { allowsPrivateTargets } from '../../src/sync/protocol/url-guard';
import { LOCAL_DEV_VARS } from './dev-vars';

/** The local demo shop connector (docs/design.md section 10; `npm run dev` serves it). Local only. */
export const DEMO_CONNECTOR = {
  name: 'Demo-Shop',
  connectorUrl: 'http://127.0.0.1:8788',
  keyId: 'demo',
  secret: 'demo-connector-secret-1',
};

/** admin@demo.test, the account the connection is saved as (scripts/seed-demo.ts numbering). */
const DEMO_ADMIN_USER_ID = '0190a000-0000-7000-8000-000000000102';

/**
 * Adds the connection "Demo-Shop" from the first demo catalog to the demo connector, once:
 * an existing connection of that name is left as it is.
 */
export async function seedDemoConnection(
  db: Database,
  encryptionKey: string | undefined,
  demo: { companyId: string; salesDepartmentId: string },
): Promise<string> {
  const existing = await db.query.syncConnections.findFirst({
    where: and(eq(syncConnections.companyId, demo.companyId), eq(syncConnections.name, DEMO_CONNECTOR.name)),
  });
  if (existing) return `Sync connection ${DEMO_CONNECTOR.name} already present (${existing.id}).`;
  const [catalog] = await db
    .select({ id: catalogs.id, name: catalogs.name })
    .from(catalogs)
    .where(and(eq(catalogs.companyId, demo.companyId), eq(catalogs.departmentId, demo.salesDepartmentId)))
    .orderBy(asc(catalogs.createdAt), asc(catalogs.id))
    .limit(1);
  if (!catalog) return 'No demo catalog: the sync connection was not added.';
  const caller = {
    userId: DEMO_ADMIN_USER_ID,
    companyId: demo.companyId,
    departmentId: demo.salesDepartmentId,
    role: 'admin' as const,
    surface: 'web' as const,
  };
  // The demo connector is on 127.0.0.1: the local state is served with ALLOW_PRIVATE_TARGETS
  // (scripts/lib/dev-vars.ts), so the SSRF rule of AddConnection is lifted here as there.
  const connection = await addConnection(
    db,
    caller,
    encryptionKey,
    {
      departmentId: demo.salesDepartmentId,
      catalogId: catalog.id,
      name: DEMO_CONNECTOR.name,
      connectorUrl: DEMO_CONNECTOR.connectorUrl,
      keyId: DEMO_CONNECTOR.keyId,
      secret: DEMO_CONNECTOR.secret,
      options: { missing: 'deactivate', maxDeactivationPercent: 10, schedule: null, defaultTaxCode: 'DE-19' },
    },
    allowsPrivateTargets(LOCAL_DEV_VARS.ALLOW_PRIVATE_TARGETS),
  );
  return `Sync connection ${DEMO_CONNECTOR.name} added: ${connection.connectionId} (catalog "${catalog.name}" -> ${DEMO_CONNECTOR.connectorUrl}).`;
}
