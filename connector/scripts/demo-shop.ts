import { DEMO_CATALOGS, OTHER_CATALOG, type DemoCategory } from '../../scripts/lib/demo-catalog';

/**
 * The demo shop's own data (docs/design.md section 10): lookup tables covering every
 * manufacturer and unit of the PIM's demo catalogs, German VAT rates, and a few products the
 * shop owns itself, which the sync must never list or touch.
 */

/** A stable, readable id for a name: "Voltana Schaltgeräte" -> "voltana-schaltgeraete". */
export function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function collect(categories: DemoCategory[], manufacturers: Set<string>, units: Set<string>) {
  for (const category of categories) {
    for (const product of category.products ?? []) {
      manufacturers.add(product.manufacturerName);
      units.add(product.unit);
    }
    collect(category.children ?? [], manufacturers, units);
  }
}

export function demoShopMappings() {
  const manufacturers = new Set<string>();
  const units = new Set<string>();
  for (const catalog of [...DEMO_CATALOGS, OTHER_CATALOG]) collect(catalog.tree, manufacturers, units);
  // The shop's house brand: a manufacturer the PIM does not know (mappings need not be 1:1).
  manufacturers.add('Hausmarke Demo-Shop');
  return {
    manufacturers: [...manufacturers].sort().map((name) => ({ id: `mfr-${slug(name)}`, name })),
    units: [...units].sort().map((code) => ({ id: `unit-${code.toLowerCase()}`, code })),
    taxes: [
      { id: 'tax-de-19', code: 'DE-19', rate: 19 },
      { id: 'tax-de-7', code: 'DE-7', rate: 7 },
      { id: 'tax-de-0', code: 'DE-0', rate: 0 },
    ],
  };
}

export const SHOP_OWN_PRODUCTS = [
  { sku: 'SHOP-GUTSCHEIN-25', name: 'Geschenkgutschein 25 EUR', price: '25.00' },
  { sku: 'SHOP-MONTAGE-1H', name: 'Montageservice, je Stunde', price: '68.00' },
  { sku: 'SHOP-VERSAND-EXPRESS', name: 'Expressversand', price: '14.90' },
];

/** Writes the demo shop in one batch; running it again changes nothing. */
export async function seedDemoShop(db: D1Database): Promise<void> {
  const { manufacturers, units, taxes } = demoShopMappings();
  const now = new Date().toISOString();
  await db.batch([
    ...manufacturers.map((m) =>
      db.prepare('INSERT INTO manufacturers (id, name) VALUES (?1, ?2) ON CONFLICT (id) DO NOTHING').bind(m.id, m.name),
    ),
    ...units.map((u) =>
      db.prepare('INSERT INTO units (id, code) VALUES (?1, ?2) ON CONFLICT DO NOTHING').bind(u.id, u.code),
    ),
    ...taxes.map((t) =>
      db
        .prepare('INSERT INTO taxes (id, code, rate) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING')
        .bind(t.id, t.code, t.rate),
    ),
    ...SHOP_OWN_PRODUCTS.map((p) =>
      db
        .prepare(
          `INSERT INTO products (sku, managed, active, name, status, tax_id, price, data, created_at, updated_at)
           VALUES (?1, 0, 1, ?2, 'active', 'tax-de-19', ?3, ?4, ?5, ?5) ON CONFLICT (sku) DO NOTHING`,
        )
        .bind(p.sku, p.name, p.price, JSON.stringify({ name: p.name, price: p.price }), now),
    ),
  ]);
}
