import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { describeOperation, type OperationDoc } from '../openapi/describe-operation';
import { JobRef } from '../jobs/jobs';
import { addConnection, deleteConnection, getConnection, listConnections, updateConnection } from './connections';
import { shopDefaults } from './connection-shop';
import { listRuns, startSync } from './start-sync';
import { allowsPrivateTargets } from './protocol/url-guard';
import { testConnection } from './test-connection';
import {
  AddConnectionDto,
  ConnectionOut,
  ConnectionRefDto,
  DeleteConnectionOut,
  GetConnectionQuery,
  GetConnectionsQuery,
  GetShopDefaultsQuery,
  GetRunsQuery,
  LastRun,
  ShopDefaultsOut,
  StartSyncDto,
  TestConnectionDto,
  TestConnectionOut,
  UpdateConnectionDto,
} from './sync.schemas';

const doc = (summary: string, response: z.ZodType, more: Partial<OperationDoc> = {}) =>
  describeOperation({ tag: 'Sync', summary, response, security: 'cookie', ...more });
const NAME_TAKEN = 'A connection with this name already exists';
/** What a connection write calls the connector with (a removed shop resets the key's target). */
const connectionDeps = (c: Context<AppEnv>) => ({
  db: c.var.db,
  encryptionKey: c.env.SYNC_ENCRYPTION_KEY,
  fetcher: (r: Request) => fetch(r),
  allowPrivate: allowsPrivateTargets(c.env.ALLOW_PRIVATE_TARGETS),
});

/** `/api/Sync/*`: connections to shop connectors and their runs (docs/sync.md). */
export const syncRoutes = new Hono<AppEnv>()
  .post(
    '/AddConnection',
    doc('Connect a catalog to a shop connector (admin)', ConnectionOut, { adminOnly: true, conflict: NAME_TAKEN }),
    validate('json', AddConnectionDto),
    async (c) =>
      c.json(
        await addConnection(
          c.var.db,
          c.var.caller,
          c.env.SYNC_ENCRYPTION_KEY,
          c.req.valid('json'),
          allowsPrivateTargets(c.env.ALLOW_PRIVATE_TARGETS),
        ),
      ),
  )
  .post(
    '/UpdateConnection',
    doc('Change a connection; the secret only when given (admin)', ConnectionOut, {
      adminOnly: true,
      conflict: NAME_TAKEN,
    }),
    validate('json', UpdateConnectionDto),
    async (c) => c.json(await updateConnection(connectionDeps(c), c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/DeleteConnection',
    doc('Delete a connection (admin)', DeleteConnectionOut, { adminOnly: true }),
    validate('json', ConnectionRefDto),
    async (c) => c.json(await deleteConnection(connectionDeps(c), c.var.caller, c.req.valid('json'))),
  )
  .get(
    '/GetConnections',
    doc("The company's sync connections with their last run", z.object({ items: z.array(ConnectionOut) })),
    validate('query', GetConnectionsQuery),
    async (c) => c.json(await listConnections(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .get(
    '/GetConnection',
    doc('One sync connection with its shop (never its credentials) and last run', ConnectionOut),
    validate('query', GetConnectionQuery),
    async (c) => c.json(await getConnection(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .get(
    '/GetShopDefaults',
    doc("A shop kind's default mapping and the credential fields it needs (for the connection form)", ShopDefaultsOut),
    validate('query', GetShopDefaultsQuery),
    async (c) => c.json(shopDefaults(c.req.valid('query').kind)),
  )
  .post(
    '/TestConnection',
    doc(
      "Call the connector, signed: the shop's settings and probe (with a shop), then /mappings; with `shop` (admin), those settings as edited, through the connector, key and secret as edited (a connection not saved yet too), stored nowhere",
      TestConnectionOut,
      {
        conflict: 'The stored secret cannot be decrypted (SYNC_ENCRYPTION_KEY changed): set it again',
        adminOnlyFields: ['shop', 'catalogId', 'connectorUrl', 'keyId', 'secret'],
        permission: 'publish',
      },
    ),
    validate('json', TestConnectionDto),
    async (c) =>
      c.json(
        await testConnection(
          {
            db: c.var.db,
            fetcher: (r) => fetch(r),
            encryptionKey: c.env.SYNC_ENCRYPTION_KEY,
            allowPrivate: allowsPrivateTargets(c.env.ALLOW_PRIVATE_TARGETS),
          },
          c.var.caller,
          c.req.valid('json'),
        ),
      ),
  )
  .post(
    '/StartSync',
    doc('Queue a sync run (a job of kind sync; follow it with Job/GetJob)', JobRef, {
      description:
        "A member limited to category subtrees runs it over the masters placed in their subtrees: the shop's other SKUs are kept, never deactivated (products deleted in the subtrees stay in the shop until a full run), and the run's report says so in `subtree` (docs/teams.md).",
      conflict: 'A sync of this connection is already queued or running',
      permission: 'publish',
    }),
    validate('json', StartSyncDto),
    async (c) =>
      c.json(
        await startSync(
          { db: c.var.db, queue: c.env.JOB_QUEUE },
          c.var.caller,
          c.req.valid('json'),
          new URL(c.req.url).origin,
        ),
      ),
  )
  .get(
    '/GetRuns',
    doc("A connection's runs, newest first", z.object({ items: z.array(LastRun), nextCursor: z.string().nullable() })),
    validate('query', GetRunsQuery),
    async (c) => c.json(await listRuns(c.var.db, c.var.caller, c.req.valid('query'))),
  );
