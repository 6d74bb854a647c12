import { eq, inArray } from 'drizzle-orm';
import type { Database } from './client';
import { companies, companyCells, departments, memberships, users } from './schema';

/**
 * Places a company that has no tenant rows yet in a cell other than cell-1 (a new company, the
 * seed's second demo company): the cell gets the rows its tenant rows reference or join (the
 * company, its departments, and its members' users for the names history and import views show,
 * without any credential: sign-in, sessions and tokens read only the directory), and the
 * directory gets the `company_cells` row that routes the company there (src/db/cells.ts).
 * A company that has tenant rows moves with the move job instead (docs/scaling.md).
 */
export async function placeCompany(directory: Database, cellDb: Database, cell: string, companyId: string) {
  const [company] = await directory.select().from(companies).where(eq(companies.id, companyId));
  if (!company) throw new Error(`company ${companyId} not found`);
  const rows = await directory.select().from(departments).where(eq(departments.companyId, companyId));
  const members = await directory
    .select({ id: users.id, email: users.email, name: users.name, createdAt: users.createdAt })
    .from(users)
    .where(
      inArray(
        users.id,
        directory.select({ id: memberships.userId }).from(memberships).where(eq(memberships.companyId, companyId)),
      ),
    );
  const names = members.map((user) => ({ ...user, passwordHash: '', passwordSalt: '', securityStamp: '' }));
  await cellDb.batch([
    cellDb.insert(companies).values(company),
    ...rows.map((row) => cellDb.insert(departments).values(row)),
    ...names.map((user) => cellDb.insert(users).values(user).onConflictDoNothing()),
  ]);
  await directory
    .insert(companyCells)
    .values({ companyId, cell })
    .onConflictDoUpdate({ target: companyCells.companyId, set: { cell, state: 'active' } });
}
