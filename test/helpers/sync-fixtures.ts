import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { jobs } from '../../src/db/schema';
import type { JobMessage } from '../../src/env';
import { AppError } from '../../src/kernel/app-error';
import { attachMedia } from '../../src/media/media';
import { addConnection } from '../../src/sync/connections';
import { runSyncSlice } from '../../src/sync/run-sync';
import { startSync } from '../../src/sync/start-sync';
import { failRun } from '../../src/sync/sync-finish';
import type { SyncDeps } from '../../src/sync/sync-state';
import type { FakeConnector } from './fake-connector';
import { FAKE_KEY, FAKE_URL } from './fake-connector';
import { db, makeCatalog, makeCompany, makeProduct, makeUser } from './factories';

export const BASE_URL = 'http://pim.test';

/** An admin caller of a fresh company with one catalog. */
export async function syncSetup() {
  const company = await makeCompany();
  const user = await makeUser(company, { role: 'admin' });
  const caller = {
    userId: user.userId,
    companyId: company.companyId,
    departmentId: company.departmentId,
    role: 'admin' as const,
    surface: 'web' as const,
  };
  const catalog = await makeCatalog(company);
  return { company, caller, catalogId: catalog.catalogId };
}

export type Setup = Awaited<ReturnType<typeof syncSetup>>;

/** A shop as AddConnection takes it: a Shopware 6 shop with its integration's credentials. */
export const SHOPWARE = {
  kind: 'shopware' as const,
  url: 'https://shop.example',
  credentials: { clientId: 'SWIA-client', clientSecret: 'shopware-client-secret-42' },
};

export async function connect(setup: Setup, options: Record<string, unknown> = {}, extra: { shop?: unknown } = {}) {
  return addConnection(db(), setup.caller, env.SYNC_ENCRYPTION_KEY, {
    ...(extra as { shop?: never }),
    departmentId: setup.company.departmentId,
    catalogId: setup.catalogId,
    name: `Shop ${crypto.randomUUID().slice(0, 6)}`,
    connectorUrl: FAKE_URL,
    keyId: FAKE_KEY.keyId,
    secret: FAKE_KEY.secret,
    options: {
      missing: 'deactivate',
      maxDeactivationPercent: 10,
      schedule: null,
      defaultTaxCode: 'DE19',
      ...options,
    } as never,
  });
}

/** A master with manufacturer, unit, an image and optionally a variant. */
export async function product(setup: Setup, sku: string, overrides: Record<string, unknown> = {}, withVariant = false) {
  const p = await makeProduct(setup.company, setup.catalogId, {
    sku,
    name: `Product ${sku}`,
    manufacturerName: 'Hager',
    unit: 'C62',
    price: '12.50',
    ...overrides,
  });
  if (withVariant)
    await makeProduct(setup.company, setup.catalogId, {
      sku: `${sku}-V1`,
      parentId: p.productId,
      name: `Variant of ${sku}`,
      unit: 'C62',
    });
  return p;
}

export async function addImage(setup: Setup, elementId: string, text = 'image') {
  return attachMedia({ db: db(), files: env.FILES }, setup.caller, {
    departmentId: setup.company.departmentId,
    elementId,
    fileName: 'photo.svg',
    purpose: 'normal',
    contentType: 'image/svg+xml',
    bytes: new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg"><text>${text}</text></svg>`),
  });
}

export function syncDeps(fake: FakeConnector, overrides: Partial<SyncDeps> = {}) {
  const sent: JobMessage[] = [];
  const sleeps: number[] = [];
  const deps: SyncDeps = {
    db: db(),
    files: env.FILES,
    queue: { send: async (m: JobMessage) => void sent.push(m) } as unknown as Queue<JobMessage>,
    fetcher: fake.fetch,
    sleep: async (ms) => void sleeps.push(ms),
    encryptionKey: env.SYNC_ENCRYPTION_KEY,
    mediaUrlKey: env.MEDIA_URL_KEY,
    sliceMs: 60_000,
    ...overrides,
  };
  return { deps, sent, sleeps };
}

export const jobRow = async (jobId: string) => (await db().query.jobs.findFirst({ where: eq(jobs.id, jobId) }))!;

/** Plays the queue consumer: slices until the job leaves queued/running (AppError fails it, as in production). */
export async function runToEnd(deps: SyncDeps, jobId: string, maxSlices = 100) {
  for (let i = 0; i < maxSlices; i++) {
    const row = await jobRow(jobId);
    if (row.state !== 'queued' && row.state !== 'running') return row;
    try {
      const outcome = await runSyncSlice(deps, row);
      if (outcome === 'stopped') return jobRow(jobId);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await failRun(deps, jobId, err.message);
    }
  }
  throw new Error('the run did not finish');
}

/** Starts a run through the domain function (as StartSync does) and plays it to the end. */
export async function runSync(
  setup: Setup,
  connectionId: string,
  deps: SyncDeps,
  options: { dryRun?: boolean; confirmDeactivations?: boolean } = {},
) {
  const holdQueue = { send: async () => undefined } as unknown as Queue<JobMessage>;
  const { jobId } = await startSync(
    { db: db(), queue: holdQueue },
    setup.caller,
    {
      departmentId: setup.company.departmentId,
      connectionId,
      dryRun: options.dryRun ?? false,
      confirmDeactivations: options.confirmDeactivations ?? false,
    },
    BASE_URL,
  );
  const row = await runToEnd(deps, jobId);
  const { getJob } = await import('../../src/jobs/jobs');
  const job = await getJob(db(), setup.caller, jobId);
  return { jobId, row, job, report: (job.result as { report: any } | null)?.report };
}
