/**
 * Mixed write-then-read operations under the simulated lagging replicas (one per cell), each read
 * bringing the bookmark its write answered with. Every write gives a product a new name (or adds
 * one), so a stale read is exact to detect; every fifth operation also reads once without the
 * bookmark, to show the lag is real.
 *
 * - Through the Worker (`STALE_OPS` operations; `npm run bench:stale` sets 10,000): round robin
 *   over REST, `/api/ai`, MCP without session, MCP session and a job (stale-surfaces.ts), each
 *   for a company in cell-1 and one in cell-2; stale counts per surface and cell.
 * - As the Worker's sessions do it (`STALE_SESSION_OPS` operations): each operation opens a
 *   session with the newest bookmark the "client" holds, as a request does, and runs a domain
 *   write (UpdateProduct, SetValue or AddProduct); the read opens a new session with the
 *   bookmark that write answered with.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addProduct, updateProduct } from '../../src/catalog/products';
import { getProduct } from '../../src/catalog/product-queries';
import { setValue } from '../../src/catalog/values';
import { databaseOf } from '../../src/db/binding';
import type { Database } from '../../src/db/client';
import { newerBookmark, openSession } from '../../src/db/session';
import { syncReplica } from '../../src/db/simulated-replica';
import { asActor, makeCatalog, makeCompany, makeProduct } from '../helpers/factories';
import { lagTenant, renewIfOld, SURFACES } from './stale-surfaces';

interface Tally {
  ops: number;
  stale: number;
  controls: number;
  staleWithout: number;
}

describe('stale reads under lag', () => {
  it('none in STALE_OPS operations through the Worker: REST, /api/ai, MCP without and with session, jobs, in cell-1 and cell-2', async () => {
    const ops = Number(env.STALE_OPS ?? '30');
    const tenants = [await lagTenant('cell-1'), await lagTenant('cell-2')];
    const kinds = Object.entries(SURFACES).flatMap(([surface, run]) =>
      tenants.map((tenant) => ({ key: `${surface}@${tenant.cell}`, run, tenant })),
    );
    const tally = new Map<string, Tally>(kinds.map((k) => [k.key, { ops: 0, stale: 0, controls: 0, staleWithout: 0 }]));
    const started = Date.now();
    for (let i = 0; i < ops; i++) {
      const kind = kinds[i % kinds.length]!;
      const t = tally.get(kind.key)!;
      const value = `name-${i}`;
      await renewIfOld(kind.tenant);
      const { read } = await kind.run(kind.tenant, value);
      t.ops += 1;
      // A control on every fifth round of the ten kinds, so each kind gets controls.
      if (Math.floor(i / kinds.length) % 5 === 0) {
        t.controls += 1;
        if ((await read(false)) !== value) t.staleWithout += 1;
      }
      if ((await read(true)) !== value) t.stale += 1;
      if (i > 0 && i % 500 === 0)
        console.log(`stale-loop (Worker): ${i} operations, ${total(tally).stale} stale with bookmark`);
    }
    const all = total(tally);
    const lines = [...tally].map(
      ([key, t]) =>
        `  ${key}: ${t.ops} operations, ${t.stale} stale with bookmark; ${t.staleWithout} of ${t.controls} control reads without bookmark stale`,
    );
    console.log(
      `stale-loop (Worker): ${ops} write-then-read operations in ${Date.now() - started} ms: ` +
        `${all.stale} stale with bookmark; ${all.staleWithout} of ${all.controls} control reads without bookmark were stale\n${lines.join('\n')}`,
    );
    expect(all.stale).toBe(0);
    // The replicas lag: reads that ignore the bookmark do see old data.
    expect(all.staleWithout).toBe(all.controls);
    expect(all.controls).toBeGreaterThan(0);
  });

  it('none in STALE_SESSION_OPS mixed domain writes and reads, each on its own session', async () => {
    const ops = Number(env.STALE_SESSION_OPS ?? '30');
    const d1 = databaseOf(env);
    const tenant = asActor(await makeCompany());
    const catalog = await makeCatalog(tenant);
    const product = await makeProduct(tenant, catalog.catalogId, { name: 'start' });
    await syncReplica(env.DB, env.DB_REPLICA_SIM!);
    const base = { departmentId: tenant.departmentId, catalogId: catalog.catalogId };
    const name = async (bookmark: string | null, productId: string) => {
      try {
        return (await getProduct(openSession(d1, bookmark).db, tenant, productId)).name;
      } catch {
        return undefined;
      }
    };
    const writes = [
      async (db: Database, value: string) => {
        await updateProduct(db, tenant, { ...base, productId: product.productId, name: value });
        return product.productId;
      },
      async (db: Database, value: string) => {
        await setValue(db, tenant, {
          departmentId: tenant.departmentId,
          elementId: product.productId,
          field: 'name',
          value,
        });
        return product.productId;
      },
      async (db: Database, value: string) =>
        (await addProduct(db, tenant, { ...base, name: value, sku: `ADD-${value}` })).productId,
    ];
    let held: string | null = null;
    let stale = 0;
    let staleWithout = 0;
    let controls = 0;
    const started = Date.now();
    for (let i = 0; i < ops; i++) {
      if (i > 0 && i % 1000 === 0) console.log(`stale-loop (sessions): ${i} operations, ${stale} stale with bookmark`);
      const value = `v-${i}`;
      const request = openSession(d1, held);
      const productId = await writes[i % writes.length]!(request.db, value);
      const bookmark = request.bookmark();
      held = newerBookmark(held, bookmark);
      if (i % 5 === 0) {
        controls += 1;
        if ((await name(null, productId)) !== value) staleWithout += 1;
      }
      if ((await name(bookmark, productId)) !== value) stale += 1;
    }
    console.log(
      `stale-loop (sessions): ${ops} write-then-read operations (UpdateProduct, SetValue, AddProduct) in ${Date.now() - started} ms: ` +
        `${stale} stale with bookmark; ${staleWithout} of ${controls} control reads without bookmark were stale`,
    );
    expect(stale).toBe(0);
    expect(staleWithout).toBe(controls);
  });
});

function total(tally: Map<string, Tally>): Tally {
  const sum = { ops: 0, stale: 0, controls: 0, staleWithout: 0 };
  for (const t of tally.values()) for (const k of Object.keys(sum) as (keyof Tally)[]) sum[k] += t[k];
  return sum;
}
