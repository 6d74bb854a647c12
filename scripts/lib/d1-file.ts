import { createHash, createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { unstable_readConfig } from 'wrangler';

/**
 * The SQLite file of one D1 binding in a local state dir (`wrangler dev --persist-to`), named the
 * way the local runtime names it: a keyed hash of the binding's `database_id`. A state dir holds
 * one file per database (DB, which is also cell-1, CELL_2, CELL_3: docs/scaling.md), so "the
 * first .sqlite file" would be any of them. The connector's store: `'DB', 'connector/wrangler.toml'`.
 */
export function d1File(persistDir: string, binding = 'DB', config = 'wrangler.toml'): string {
  const databases: { binding: string; database_id?: string }[] = unstable_readConfig({ config }).d1_databases;
  const database = databases.find((d) => d.binding === binding);
  if (!database?.database_id) throw new Error(`no D1 binding ${binding} in ${config}`);
  const key = createHash('sha256').update('miniflare-D1DatabaseObject').digest();
  const name = createHmac('sha256', key).update(database.database_id).digest().subarray(0, 16);
  const mac = createHmac('sha256', key).update(name).digest().subarray(0, 16);
  const id = Buffer.concat([name, mac]).toString('hex');
  const file = join(persistDir, 'v3', 'd1', 'miniflare-D1DatabaseObject', `${id}.sqlite`);
  if (!existsSync(file)) throw new Error(`no D1 file of ${binding} (${config}) in ${persistDir}`);
  return file;
}
