import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { createDb } from '../../src/db/client';
import { companies, companyCells, departments } from '../../src/db/schema';
import { db } from './factories';

/** The database of a test cell (vitest.config.ts binds CELL_2 and CELL_3 beside DB = cell-1). */
export function cellD1(cell: 'cell-2' | 'cell-3'): D1Database {
  return cell === 'cell-2' ? env.CELL_2 : env.CELL_3;
}

/**
 * Places a fresh company (made in the directory by the factories, no tenant rows yet) in another
 * cell, as the seed does: its company and department rows there (the cell's own tenant rows
 * reference them), and its `company_cells` row in the directory.
 */
export async function placeInCell(companyId: string, cell: 'cell-2' | 'cell-3') {
  const company = await db().query.companies.findFirst({ where: eq(companies.id, companyId) });
  const rows = await db().select().from(departments).where(eq(departments.companyId, companyId));
  const target = createDb(cellD1(cell));
  await target.batch([target.insert(companies).values(company!), target.insert(departments).values(rows)]);
  await db().insert(companyCells).values({ companyId, cell });
}

/** Whether a row with this id is in a table of a database. */
export async function hasRow(d1: D1Database, table: string, id: string): Promise<boolean> {
  return (await d1.prepare(`SELECT 1 AS x FROM "${table}" WHERE id = ?`).bind(id).first()) !== null;
}
