import { env } from 'cloudflare:workers';
import { placeCompany } from '../../src/db/cell-placement';
import { createDb } from '../../src/db/client';
import { db } from './factories';

/** The database of a test cell (vitest.config.ts binds CELL_2 and CELL_3 beside DB = cell-1). */
export function cellD1(cell: 'cell-2' | 'cell-3'): D1Database {
  return cell === 'cell-2' ? env.CELL_2 : env.CELL_3;
}

/** Places a fresh company (made in the directory by the factories, no tenant rows yet) in another cell. */
export async function placeInCell(companyId: string, cell: 'cell-2' | 'cell-3') {
  await placeCompany(db(), createDb(cellD1(cell)), cell, companyId);
}

/** Whether a row with this id is in a table of a database. */
export async function hasRow(d1: D1Database, table: string, id: string): Promise<boolean> {
  return (await d1.prepare(`SELECT 1 AS x FROM "${table}" WHERE id = ?`).bind(id).first()) !== null;
}
