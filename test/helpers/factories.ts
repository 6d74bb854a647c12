import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { hashPassword } from '../../src/accounts/passwords';
import { databaseOf } from '../../src/db/binding';
import type { Database } from '../../src/db/client';
import { openSession } from '../../src/db/session';
import { newId } from '../../src/kernel/ids';
import { companies, departments, memberships, users } from '../../src/db/schema';
import { addCatalog } from '../../src/catalog/catalogs';
import { addProduct } from '../../src/catalog/products';
import type { CatalogInput, ProductInput } from '../../src/catalog/catalog.schemas';
import { addCategory, type CategoryInput } from '../../src/catalog/categories';
import { addAttribute, type AttributeInput } from '../../src/catalog/attributes';
import { createClassification } from '../../src/classification/links';
import type { Caller } from '../../src/kernel/caller';
import type { Role } from '../../src/kernel/permissions';

/** A fixture tenant (maybe without a user); `asActor` makes it the Caller of a domain function, on the web surface. */
export type FixtureTenant = {
  companyId: string;
  departmentId: string;
  userId?: string;
  surface?: Caller['surface'];
  role?: Caller['role'];
};

export const FIXTURE_USER = '00000000-0000-7000-8000-00000000f1f1';

export function asActor<T extends FixtureTenant>(tenant: T): T & Caller {
  // An editor unless the tenant names a role: the rights every member had before roles (docs/teams.md).
  return { role: 'editor', ...tenant, userId: tenant.userId ?? FIXTURE_USER, surface: tenant.surface ?? 'web' };
}

export const PASSWORD = 'test-password-123';

/**
 * Fixtures and assertions work on a session that starts on the primary, through the binding the
 * Worker uses (with test/lag/, the one behind the simulated lagging replica).
 */
export function db(): Database {
  return openSession(databaseOf(env)).primary();
}

/** A company with one department. */
export async function makeCompany(name = `Company ${newId().slice(-6)}`) {
  const companyId = newId();
  const departmentId = newId();
  await db().batch([
    db().insert(companies).values({ id: companyId, name }),
    db().insert(departments).values({ id: departmentId, companyId, name: 'Sales' }),
  ]);
  return { companyId, departmentId };
}

export async function makeDepartment(companyId: string, name = 'Purchasing') {
  const departmentId = newId();
  await db().insert(departments).values({ id: departmentId, companyId, name });
  return departmentId;
}

let cachedHash: { hash: string; salt: string } | undefined;

/** A user with a membership; password PASSWORD. */
export async function makeUser(
  company: { companyId: string; departmentId: string },
  options: { role?: Role; aiSwitch?: boolean; email?: string; operator?: boolean } = {},
) {
  cachedHash ??= await hashPassword(PASSWORD);
  const userId = newId();
  const email = options.email ?? `user-${userId}@test.example`;
  await db().batch([
    db()
      .insert(users)
      .values({
        id: userId,
        email,
        name: 'Test User',
        passwordHash: cachedHash.hash,
        passwordSalt: cachedHash.salt,
        securityStamp: crypto.randomUUID(),
        aiMayEditClassifications: options.aiSwitch ?? false,
        isOperator: options.operator ?? false,
      }),
    db()
      .insert(memberships)
      .values({
        userId,
        companyId: company.companyId,
        role: options.role ?? 'editor',
        defaultDepartmentId: company.departmentId,
      }),
  ]);
  return { userId, email, ...company };
}

/** Enables content languages for a company (what an admin's SetLanguages does), keeping its default. */
export async function enableLanguages(companyId: string, languages: readonly string[]) {
  const [row] = await db().select().from(companies).where(eq(companies.id, companyId));
  const enabled = [...new Set([...(row?.languages ?? ['deu']), ...languages])];
  await db().update(companies).set({ languages: enabled }).where(eq(companies.id, companyId));
}

/** A catalog; the languages it names are enabled for the company first (a fixture, not the rule under test). */
export async function makeCatalog(tenant: FixtureTenant, overrides: Partial<CatalogInput> = {}) {
  const languages = [overrides.language, ...(overrides.languages ?? [])].filter((l): l is string => !!l);
  if (languages.length > 0) await enableLanguages(tenant.companyId, languages);
  return addCatalog(db(), asActor(tenant), { departmentId: tenant.departmentId, name: 'Test catalog', ...overrides });
}

export async function makeProduct(tenant: FixtureTenant, catalogId: string, overrides: Partial<ProductInput> = {}) {
  return addProduct(db(), asActor(tenant), {
    departmentId: tenant.departmentId,
    catalogId,
    name: 'Test product',
    sku: `SKU-${newId().slice(-12)}`,
    ...overrides,
  });
}

/** A company, a user in it, and that user's logged-in session cookie. */
/** A signed-in user of a new company; `operator`: the user is the service operator (users.is_operator). */
export async function makeSession(options: { role?: Role; operator?: boolean } = {}) {
  const company = await makeCompany();
  const user = await makeUser(company, options);
  const { loginAs } = await import('./http');
  const cookie = await loginAs(user.email);
  const surface = 'web' as const;
  // The session passed as a Caller to domain functions acts with its membership's role, as the web's does.
  const role = options.role ?? 'editor';
  return {
    ...user,
    surface,
    role,
    cookie,
    tenant: { companyId: company.companyId, departmentId: company.departmentId, userId: user.userId, surface, role },
  };
}

export async function makeCategory(tenant: FixtureTenant, catalogId: string, overrides: Partial<CategoryInput> = {}) {
  return addCategory(db(), asActor(tenant), {
    departmentId: tenant.departmentId,
    catalogId,
    name: `Category ${newId().slice(-6)}`,
    ...overrides,
  });
}

export async function makeAttribute(
  tenant: FixtureTenant,
  overrides: Partial<AttributeInput> & Pick<AttributeInput, 'type'>,
) {
  return addAttribute(db(), asActor(tenant), {
    code: `attr_${newId().slice(-8)}`,
    name: 'Test attribute',
    ...overrides,
  });
}

/** Classifies an element as ETIM EC000042 (MCB), whose features include EF000008 (rated voltage, VLT). */
export async function classifyAsMcb(
  tenant: FixtureTenant,
  elementId: string,
  features: { code: string; value: string }[] = [],
) {
  return createClassification(db(), asActor(tenant), {
    elementId,
    name: 'MCB',
    classificationGroups: 1,
    classes: [{ group: 'ETIM', code: 'EC000042' }],
    features,
  });
}

/** The membership of the user with `email` in the company, or null (no such user or no membership). */
export async function memberOf(companyId: string, email: string) {
  const user = await db().query.users.findFirst({ where: eq(users.email, email) });
  if (!user) return null;
  return (
    (await db().query.memberships.findFirst({
      where: and(eq(memberships.userId, user.id), eq(memberships.companyId, companyId)),
    })) ?? null
  );
}
