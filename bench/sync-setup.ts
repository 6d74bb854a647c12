import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPlatformProxy } from 'wrangler';
import { createDb } from '../src/db/client';
import type { Bindings } from '../src/env';
import { addConnection } from '../src/sync/connections';
import { allowsPrivateTargets } from '../src/sync/protocol/url-guard';
import { migrate } from '../scripts/lib/dev-server';
import { LOCAL_DEV_VARS } from '../scripts/lib/dev-vars';
import { seededState } from './lib/state';

export const BENCH_KEY = { keyId: 'bench', secret: 'bench-connector-secret-1' };

/** `--var` flags giving the PIM its sync secrets (local values, as in .dev.vars). */
export const PIM_VARS = Object.entries(LOCAL_DEV_VARS).flatMap(([name, value]) => ['--var', `${name}:${value}`]);

/** A temporary PIM state with a synthetic catalog of `masters` (scripts/seed-synthetic.ts). */
export const seedPim = (masters: number) => seededState(masters, undefined, 'pim-bench-sync-');

/** Adds the bench connection (saved as the synthetic user, acting as admin) before the server starts. */
export async function addBenchConnection(
  dir: string,
  seeded: { companyId: string; departmentId: string; catalogId: string },
  connectorUrl: string,
) {
  const proxy = await getPlatformProxy<Bindings>({
    configPath: 'wrangler.toml',
    persist: { path: `${dir}/v3` },
    remoteBindings: false,
  });
  try {
    const [user] = (
      await proxy.env.DB.prepare('SELECT user_id FROM memberships WHERE company_id = ?')
        .bind(seeded.companyId)
        .all<{ user_id: string }>()
    ).results;
    const userId = user!.user_id;
    const caller = {
      userId,
      companyId: seeded.companyId,
      departmentId: seeded.departmentId,
      role: 'admin' as const,
      surface: 'web' as const,
    };
    // A local connector (127.0.0.1), as the local state's ALLOW_PRIVATE_TARGETS allows.
    const connection = await addConnection(
      createDb(proxy.env.DB),
      caller,
      LOCAL_DEV_VARS.SYNC_ENCRYPTION_KEY,
      {
        departmentId: seeded.departmentId,
        catalogId: seeded.catalogId,
        name: 'Bench shop',
        connectorUrl,
        ...BENCH_KEY,
        options: { missing: 'deactivate', maxDeactivationPercent: 10, schedule: null, defaultTaxCode: 'DE-19' },
      },
      allowsPrivateTargets(LOCAL_DEV_VARS.ALLOW_PRIVATE_TARGETS),
    );
    await proxy.env.DB.prepare('UPDATE memberships SET role = ? WHERE user_id = ?').bind('admin', userId).run();
    return connection.connectionId;
  } finally {
    await proxy.dispose();
  }
}

/** A connector state whose mappings cover the synthetic catalog (50 manufacturers, C62, DE-19). */
export async function seedConnector() {
  const dir = mkdtempSync(join(tmpdir(), 'connector-bench-'));
  await migrate(dir, 'connector/wrangler.toml');
  const proxy = await getPlatformProxy<{ DB: D1Database }>({
    configPath: 'connector/wrangler.toml',
    persist: { path: `${dir}/v3` },
    remoteBindings: false,
  });
  try {
    const db = proxy.env.DB;
    await db.batch([
      ...Array.from({ length: 50 }, (_, i) =>
        db.prepare('INSERT INTO manufacturers (id, name) VALUES (?1, ?2)').bind(`mfr-${i}`, `Hersteller ${i}`),
      ),
      db.prepare('INSERT INTO units (id, code) VALUES (?1, ?2)').bind('unit-c62', 'C62'),
      db.prepare('INSERT INTO taxes (id, code, rate) VALUES (?1, ?2, ?3)').bind('tax-de-19', 'DE-19', 19),
    ]);
  } finally {
    await proxy.dispose();
  }
  return dir;
}
