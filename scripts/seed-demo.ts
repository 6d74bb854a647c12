/**
 * Seeds the demo companies, accounts (docs/design.md section 10) and catalogs into the local D1 through
 * the service's own domain functions, so counters, fingerprints and validation are exactly what
 * the API would produce. Runs once: if the demo company exists, nothing changes.
 *
 *   npm run seed                      # the state `wrangler dev` uses (.wrangler/state)
 *   npm run seed -- --persist-to DIR  # another state dir, as with wrangler's flag
 */
import { eq } from 'drizzle-orm';
import { hashPassword } from '../src/accounts/passwords';
import { addAttribute } from '../src/catalog/attributes';
import { addCatalog } from '../src/catalog/catalogs';
import { addCategory } from '../src/catalog/categories';
import { addProduct } from '../src/catalog/products';
import { createClassification } from '../src/classification/links';
import { seedReferenceData } from '../src/classification/reference-data';
import { placeCompany } from '../src/db/cell-placement';
import { cellDatabase } from '../src/db/cells';
import { createDb, type Database } from '../src/db/client';
import { companies, departments, memberships, users } from '../src/db/schema';
import { setValue } from '../src/catalog/values';
import { attachMedia } from '../src/media/media';
import {
  DEMO_CATALOGS,
  OTHER_CATALOG,
  type DemoCatalog,
  type DemoCategory,
  type DemoProduct,
} from './lib/demo-catalog';
import { localBindings } from './lib/platform';
import type { Bindings } from '../src/env';
import { ensureDevVars } from './lib/dev-vars';
import { seedDemoConnection } from './lib/demo-connection';

export const DEMO = {
  companyId: '0190a000-0000-7000-8000-000000000001',
  salesDepartmentId: '0190a000-0000-7000-8000-000000000011',
  purchasingDepartmentId: '0190a000-0000-7000-8000-000000000012',
  otherCompanyId: '0190a000-0000-7000-8000-000000000002',
  otherDepartmentId: '0190a000-0000-7000-8000-000000000021',
  password: 'demo-password-1',
};

/** The seed writes as a company admin through the job surface (no job id): its history says so. */
type Tenant = { companyId: string; departmentId: string; userId: string; surface: 'job' };

async function seedAccounts(db: Database) {
  await db.batch([
    db.insert(companies).values({ id: DEMO.companyId, name: 'Demo Elektro GmbH' }),
    db.insert(companies).values({ id: DEMO.otherCompanyId, name: 'Zweite Handel GmbH' }),
    db.insert(departments).values({ id: DEMO.salesDepartmentId, companyId: DEMO.companyId, name: 'Vertrieb' }),
    db.insert(departments).values({ id: DEMO.purchasingDepartmentId, companyId: DEMO.companyId, name: 'Einkauf' }),
    db.insert(departments).values({ id: DEMO.otherDepartmentId, companyId: DEMO.otherCompanyId, name: 'Zentrale' }),
  ]);
  await addDemoAccounts(db);
}

/**
 * Inserts the demo accounts not yet in the database (by email): all of them on the first seed,
 * and an account added to the list later (operator@demo.test) into a local state seeded before it.
 */
async function addDemoAccounts(db: Database) {
  const accounts: {
    email: string;
    name: string;
    ai: boolean;
    memberships: [string, string, 'admin' | 'editor'][];
    /** The service operator (users.is_operator): loads the classification releases every company shares. */
    operator?: true;
  }[] = [
    {
      email: 'editor@demo.test',
      name: 'Erika Editor',
      ai: true,
      memberships: [[DEMO.companyId, DEMO.salesDepartmentId, 'editor']],
    },
    {
      email: 'noai@demo.test',
      name: 'Norbert Ohne-KI',
      ai: false,
      memberships: [[DEMO.companyId, DEMO.salesDepartmentId, 'editor']],
    },
    {
      email: 'admin@demo.test',
      name: 'Anna Admin',
      ai: true,
      memberships: [[DEMO.companyId, DEMO.salesDepartmentId, 'admin']],
    },
    {
      email: 'multi@demo.test',
      name: 'Max Mehrfach',
      ai: true,
      memberships: [
        [DEMO.companyId, DEMO.salesDepartmentId, 'editor'],
        [DEMO.otherCompanyId, DEMO.otherDepartmentId, 'editor'],
      ],
    },
    {
      email: 'other@demo.test',
      name: 'Olga Andere',
      ai: true,
      memberships: [[DEMO.otherCompanyId, DEMO.otherDepartmentId, 'editor']],
    },
    {
      email: 'operator@demo.test',
      name: 'Otto Operator',
      ai: false,
      memberships: [[DEMO.companyId, DEMO.salesDepartmentId, 'admin']],
      operator: true,
    },
  ];
  for (const [i, account] of accounts.entries()) {
    if (await db.query.users.findFirst({ where: eq(users.email, account.email) })) continue;
    const userId = `0190a000-0000-7000-8000-0000000001${String(i).padStart(2, '0')}`;
    const { hash, salt } = await hashPassword(DEMO.password);
    await db.batch([
      db.insert(users).values({
        id: userId,
        email: account.email,
        name: account.name,
        passwordHash: hash,
        passwordSalt: salt,
        securityStamp: crypto.randomUUID(),
        aiMayEditClassifications: account.ai,
        isOperator: account.operator ?? false,
      }),
      ...account.memberships.map(([companyId, departmentId, role]) =>
        db.insert(memberships).values({ userId, companyId, role, defaultDepartmentId: departmentId }),
      ),
    ]);
  }
}

async function seedAttributes(db: Database, tenant: Tenant) {
  await addAttribute(db, tenant, { code: 'weight_kg', name: 'Gewicht', type: 'number', unit: 'KGM' });
  await addAttribute(db, tenant, { code: 'country_of_origin', name: 'Ursprungsland', type: 'text' });
  await addAttribute(db, tenant, {
    code: 'packaging',
    name: 'Verpackung',
    type: 'enum',
    enumValues: ['box', 'ring', 'drum', 'bag'],
  });
  await addAttribute(db, tenant, { code: 'temperature_range', name: 'Temperaturbereich', type: 'range', unit: 'CEL' });
  await addAttribute(db, tenant, { code: 'rohs_compliant', name: 'RoHS-konform', type: 'boolean' });
}

let gtinCounter = 100000;
function nextGtin(): string {
  const body = `4061234${String(gtinCounter++).padStart(5, '0')}`;
  const sum = [...body].reverse().reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return body + String((10 - (sum % 10)) % 10);
}

function datasheet(title: string): Uint8Array {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="120"><rect width="400" height="120" fill="#eef3fa"/><text x="20" y="65" font-family="sans-serif" font-size="18">${title.replace(/[<&>]/g, '')}</text></svg>`;
  return new TextEncoder().encode(svg);
}

async function seedProduct(
  db: Database,
  files: R2Bucket,
  tenant: Tenant,
  catalogId: string,
  categoryId: string,
  p: DemoProduct,
) {
  const master = await addProduct(db, tenant, {
    departmentId: tenant.departmentId,
    catalogId,
    sku: p.sku,
    name: p.name,
    description: p.description,
    manufacturerName: p.manufacturerName,
    manufacturerPid: p.sku.replace(/^[A-Z]+-/, ''),
    unit: p.unit,
    price: p.price,
    gtin: nextGtin(),
    categoryIds: [categoryId],
    deliveryTimeDays: 2,
  });
  for (const [field, value] of Object.entries(p.values ?? {}))
    await setValue(db, tenant, { departmentId: tenant.departmentId, elementId: master.productId, field, value });
  await setValue(db, tenant, {
    departmentId: tenant.departmentId,
    elementId: master.productId,
    field: 'rohs_compliant',
    value: 'true',
  });
  const classify = async (elementId: string, name: string, features: Record<string, string>) => {
    if (!p.etimClass) return;
    const classes = [
      { group: 'ETIM' as const, code: p.etimClass },
      ...(p.eclassClass ? [{ group: 'ECLASS' as const, code: p.eclassClass }] : []),
    ];
    await createClassification(db, tenant, {
      elementId,
      name,
      classificationGroups: p.eclassClass ? 3 : 1,
      classes,
      features: Object.entries(features).map(([code, value]) => ({ group: 'ETIM' as const, code, value })),
    });
  };
  await classify(master.productId, p.name, p.features ?? {});
  await attachMedia({ db, files }, tenant, {
    departmentId: tenant.departmentId,
    elementId: master.productId,
    fileName: `${p.sku}.svg`,
    purpose: 'normal',
    contentType: 'image/svg+xml',
    bytes: datasheet(p.name),
  });
  for (const v of p.variants ?? []) {
    const variant = await addProduct(db, tenant, {
      departmentId: tenant.departmentId,
      catalogId,
      parentId: master.productId,
      sku: `${p.sku}-${v.skuSuffix}`,
      name: v.name,
      description: p.description,
      manufacturerName: p.manufacturerName,
      manufacturerPid: `${p.sku}-${v.skuSuffix}`.replace(/^[A-Z]+-/, ''),
      unit: p.unit,
      price: v.price,
      gtin: nextGtin(),
      deliveryTimeDays: 2,
    });
    for (const [field, value] of Object.entries(v.values ?? {}))
      await setValue(db, tenant, { departmentId: tenant.departmentId, elementId: variant.productId, field, value });
    await classify(variant.productId, v.name, { ...p.features, ...v.features });
  }
}

async function seedTree(
  db: Database,
  files: R2Bucket,
  tenant: Tenant,
  catalogId: string,
  nodes: DemoCategory[],
  parentId: string | null,
) {
  for (const [sortOrder, node] of nodes.entries()) {
    const category = await addCategory(db, tenant, {
      departmentId: tenant.departmentId,
      catalogId,
      parentId,
      name: node.name,
      sortOrder,
    });
    for (const product of node.products ?? [])
      await seedProduct(db, files, tenant, catalogId, category.categoryId, product);
    await seedTree(db, files, tenant, catalogId, node.children ?? [], category.categoryId);
  }
}

async function seedCatalog(db: Database, files: R2Bucket, tenant: Tenant, catalog: DemoCatalog) {
  const created = await addCatalog(db, tenant, {
    departmentId: tenant.departmentId,
    name: catalog.name,
    catalogType: catalog.catalogType,
    catalogVersion: catalog.catalogVersion,
  });
  await seedTree(db, files, tenant, created.catalogId, catalog.tree, null);
  return created.catalogId;
}

/**
 * Seeds both demo companies. `db` is the directory (also cell-1, where Demo Elektro GmbH lives);
 * with `otherCell`, Zweite Handel GmbH is placed in that cell (docs/scaling.md section 5), so a
 * fresh `npm run dev` serves two companies from two databases.
 */
export async function seedDemo(
  db: Database,
  files: R2Bucket,
  otherCell?: { name: string; db: Database },
): Promise<boolean> {
  await seedReferenceData(db);
  if (otherCell) await seedReferenceData(otherCell.db);
  const existing = await db.query.companies.findFirst({ where: eq(companies.id, DEMO.companyId) });
  if (existing) {
    await addDemoAccounts(db);
    return false;
  }
  await seedAccounts(db);
  if (otherCell) await placeCompany(db, otherCell.db, otherCell.name, DEMO.otherCompanyId);
  const otherDb = otherCell?.db ?? db;
  const demo: Tenant = {
    companyId: DEMO.companyId,
    departmentId: DEMO.salesDepartmentId,
    userId: '0190a000-0000-7000-8000-000000000102',
    surface: 'job',
  };
  const other: Tenant = {
    companyId: DEMO.otherCompanyId,
    departmentId: DEMO.otherDepartmentId,
    userId: '0190a000-0000-7000-8000-000000000104',
    surface: 'job',
  };
  await seedAttributes(db, demo);
  await seedAttributes(otherDb, other);
  for (const catalog of DEMO_CATALOGS) await seedCatalog(db, files, demo, catalog);
  await seedCatalog(otherDb, files, other, OTHER_CATALOG);
  return true;
}

/** The databases the seed writes: the demo company in cell-1, the second in cell-2, cell-3 empty. */
function seedDatabases(env: Bindings) {
  const [cell1, cell2, cell3] = ['cell-1', 'cell-2', 'cell-3'].map((cell) => createDb(cellDatabase(env, cell)));
  return { cell1: cell1!, cell2: cell2!, cell3: cell3! };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureDevVars();
  const proxy = await localBindings();
  try {
    const { cell1, cell2, cell3 } = seedDatabases(proxy.env);
    const seeded = await seedDemo(cell1, proxy.env.FILES, { name: 'cell-2', db: cell2 });
    // Every cell can read the reference data, the third (empty) one included.
    await seedReferenceData(cell3);
    console.log(
      seeded
        ? 'Demo data seeded: Demo Elektro GmbH (cell-1) and Zweite Handel GmbH (cell-2), password demo-password-1.'
        : 'Demo data already present; nothing changed.',
    );
    console.log(await seedDemoConnection(cell1, proxy.env.SYNC_ENCRYPTION_KEY, DEMO));
  } finally {
    await proxy.dispose();
  }
}
