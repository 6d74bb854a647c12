import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0010 (leaner child tables) on a database holding data: apply every migration
 * before it, write rows through the old schema (two companies), apply 0010, and check that every
 * row is kept with the same content, that classes and features now reference the link's
 * integer key, and that keys, cascades and the category counters still work.
 */
const companies = ['c0000000-0000-7000-8000-000000000010', 'c0000000-0000-7000-8000-000000000011'];
const pid = (c: number, i: number) => `p000000${c}-0000-7000-8000-${String(i).padStart(12, '0')}`;
const lid = (c: number, i: number) => `l000000${c}-0000-7000-8000-${String(i).padStart(12, '0')}`;

async function seedOldSchema(db: D1Database) {
  const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
  const statements: D1PreparedStatement[] = [];
  companies.forEach((company, c) => {
    statements.push(
      run('INSERT INTO companies (id, name) VALUES (?, ?)', company, `Migrated ${c}`),
      run(`INSERT INTO departments (id, company_id, name) VALUES (?, ?, 'D')`, `d${c}`, company),
      run(
        `INSERT INTO catalogs (id, company_id, department_id, name) VALUES (?, ?, ?, 'Cat')`,
        `cat${c}`,
        company,
        `d${c}`,
      ),
      run(
        `INSERT INTO categories (id, company_id, catalog_id, name) VALUES (?, ?, ?, 'K')`,
        `k${c}`,
        company,
        `cat${c}`,
      ),
      run(
        `INSERT INTO attributes (id, company_id, code, name, type) VALUES (?, ?, 'w', 'W', 'number')`,
        `a${c}`,
        company,
      ),
    );
    for (let i = 0; i < 12; i++) {
      const parent = i % 4 === 3 ? pid(c, i - 1) : null;
      statements.push(
        run(
          `INSERT INTO products (id, company_id, catalog_id, parent_id, sku, name) VALUES (?, ?, ?, ?, ?, ?)`,
          pid(c, i),
          company,
          `cat${c}`,
          parent,
          `MIG-${i}`,
          `Produkt ${i}`,
        ),
        run(
          `INSERT INTO attribute_values (element_id, attribute_id, company_id, value, number_value, updated_at)
           VALUES (?, ?, ?, ?, ?, '2026-01-02T00:00:00.000Z')`,
          pid(c, i),
          `a${c}`,
          company,
          String(i),
          i,
        ),
        run(
          `INSERT INTO media (id, company_id, element_id, purpose, file_name, content_type, size, storage_key, sha256, sort_order, created_at)
           VALUES (?, ?, ?, 'normal', ?, 'image/jpeg', ?, ?, ?, ?, '2026-01-03T00:00:00.000Z')`,
          `m${c}-${i}`,
          company,
          pid(c, i),
          `MIG-${i}.jpg`,
          1000 + i,
          `media/${company}/MIG-${i}.jpg`,
          i % 2 ? null : 'ab'.repeat(32),
          i % 3,
        ),
      );
      if (i % 3 !== 2) {
        // Link ids out of insertion order: the integer key follows the row, not the text.
        statements.push(
          run(
            `INSERT INTO classification_links (link_id, company_id, element_id, name, classification_groups, created_at, updated_at)
             VALUES (?, ?, ?, ?, 1, '2026-01-04T00:00:00.000Z', '2026-01-05T00:00:00.000Z')`,
            lid(c, 100 - i),
            company,
            pid(c, i),
            `Link ${i}`,
          ),
          run(
            `INSERT INTO classification_link_classes (link_id, "group", system, code) VALUES (?, 'ETIM', 'ETIM-9.0', 'EC000042')`,
            lid(c, 100 - i),
          ),
          run(
            `INSERT INTO classification_link_features (link_id, "group", code, value, unit)
             VALUES (?, 'ETIM', 'EF000008', ?, 'VLT'), (?, 'ETIM', 'EF000001', '-25..55', 'CEL')`,
            lid(c, 100 - i),
            String(200 + i),
            lid(c, 100 - i),
          ),
        );
      }
      if (!parent)
        statements.push(
          run(
            'INSERT INTO product_categories (product_id, category_id, company_id) VALUES (?, ?, ?)',
            pid(c, i),
            `k${c}`,
            company,
          ),
        );
    }
  });
  await db.batch(statements);
}

const rows = async (db: D1Database, sql: string, ...args: unknown[]) =>
  (
    await db
      .prepare(sql)
      .bind(...args)
      .all()
  ).results;

/** The link's classes and features by its public id, whatever key the child tables use. */
const LINK_PARTS_OLD = {
  classes: `SELECT c.link_id, c."group", c.system, c.code FROM classification_link_classes c ORDER BY 1, 2`,
  features: `SELECT f.link_id, f."group", f.code, f.value, f.unit FROM classification_link_features f ORDER BY 1, 2, 3`,
};
const LINK_PARTS_NEW = {
  classes: `SELECT l.link_id, c."group", c.system, c.code FROM classification_link_classes c
    JOIN classification_links l ON l.id = c.link_id ORDER BY 1, 2`,
  features: `SELECT l.link_id, f."group", f.code, f.value, f.unit FROM classification_link_features f
    JOIN classification_links l ON l.id = f.link_id ORDER BY 1, 2, 3`,
};

describe('migration 0010_lean_storage', () => {
  it('keeps every row, keys link parts by integer and drops only the repeated columns', async () => {
    const { db, apply } = await migratedUpTo('0010_');
    await seedOldSchema(db);

    const values = await rows(
      db,
      'SELECT element_id, attribute_id, value, number_value, number_value_to FROM attribute_values ORDER BY 1, 2',
    );
    const links = await rows(
      db,
      `SELECT rowid AS id, link_id, company_id, element_id, name, classification_groups, created_at, updated_at
       FROM classification_links ORDER BY rowid`,
    );
    const classes = await rows(db, LINK_PARTS_OLD.classes);
    const features = await rows(db, LINK_PARTS_OLD.features);
    const placements = await rows(db, 'SELECT product_id, category_id FROM product_categories ORDER BY 1, 2');
    const mediaColumns =
      'id, element_id, purpose, file_name, content_type, size, storage_key, description, sort_order, created_at, sha256';
    const media = await rows(db, `SELECT ${mediaColumns} FROM media ORDER BY id`);
    const counts = await rows(db, 'SELECT id, product_count FROM categories ORDER BY id');
    const products = await rows(db, 'SELECT * FROM products ORDER BY id');
    expect([values.length, links.length, features.length, placements.length, media.length]).toEqual([
      24, 16, 32, 18, 24,
    ]);

    await apply();

    expect(await rows(db, 'SELECT * FROM attribute_values ORDER BY 1, 2')).toEqual(values);
    expect(await rows(db, 'SELECT * FROM classification_links ORDER BY id')).toEqual(links);
    expect(await rows(db, LINK_PARTS_NEW.classes)).toEqual(classes);
    expect(await rows(db, LINK_PARTS_NEW.features)).toEqual(features);
    expect(await rows(db, 'SELECT * FROM product_categories ORDER BY 1, 2')).toEqual(placements);
    expect(await rows(db, `SELECT ${mediaColumns} FROM media ORDER BY id`)).toEqual(media);
    expect(await rows(db, 'SELECT id, product_count FROM categories ORDER BY id')).toEqual(counts);
    expect(await rows(db, 'SELECT * FROM products ORDER BY id')).toEqual(products);

    const schema = await rows(db, `SELECT name, sql FROM sqlite_schema ORDER BY name`);
    const sqlOf = (name: string) => String(schema.find((t) => t.name === name)?.sql ?? '');
    for (const table of ['attribute_values', 'classification_link_classes', 'classification_link_features'])
      expect(sqlOf(table)).toMatch(/WITHOUT ROWID$/);
    expect(sqlOf('product_categories')).toMatch(/WITHOUT ROWID$/);
    expect(sqlOf('media')).toMatch(/WITHOUT ROWID$/);
    for (const table of ['attribute_values', 'product_categories', 'media'])
      expect(sqlOf(table)).not.toMatch(/company_id/);
    expect(sqlOf('classification_link_features')).toMatch(/`link_id` integer NOT NULL/);
    expect(schema.filter((t) => String(t.name).endsWith('_old'))).toEqual([]);
    expect(
      schema
        .filter((t) =>
          ['classification_links', 'product_categories', 'media'].some(
            (table) => String(t.sql ?? '').includes(`ON \`${table}\``) || String(t.sql ?? '').includes(`ON ${table}`),
          ),
        )
        .map((t) => t.name)
        .sort(),
    ).toEqual([
      'classification_links_company_idx',
      'classification_links_element_uq',
      'classification_links_link_id_unique',
      'media_element_idx',
      'product_categories_category_idx',
      'product_categories_count_delete',
      'product_categories_count_insert',
      'product_categories_count_update',
    ]);

    // The public link id stays unique; a link's parts go with it; placements still count.
    const link = links[0] as { id: number; link_id: string; element_id: string };
    await expect(
      db
        .prepare(
          `INSERT INTO classification_links (link_id, company_id, element_id, name, classification_groups) VALUES (?, ?, 'other', 'x', 1)`,
        )
        .bind(link.link_id, companies[0])
        .run(),
    ).rejects.toThrow(/UNIQUE/);
    await expect(
      db
        .prepare(
          `INSERT INTO classification_link_features (link_id, "group", code, value) VALUES (999999, 'ETIM', 'X', '1')`,
        )
        .run(),
    ).rejects.toThrow(/FOREIGN KEY/);
    await db.prepare('DELETE FROM classification_links WHERE id = ?').bind(link.id).run();
    expect(await rows(db, 'SELECT * FROM classification_link_features WHERE link_id = ?', link.id)).toEqual([]);
    expect(await rows(db, 'SELECT * FROM classification_link_classes WHERE link_id = ?', link.id)).toEqual([]);
    expect((await rows(db, 'SELECT count(*) AS n FROM classification_link_features'))[0]).toEqual({ n: 30 });

    await db.prepare('DELETE FROM products WHERE id = ?').bind(pid(0, 0)).run();
    await db.prepare(`INSERT INTO product_categories (product_id, category_id) VALUES (?, 'k0')`).bind(pid(0, 3)).run();
    expect(await rows(db, 'SELECT id, product_count FROM categories ORDER BY id')).toEqual([
      { id: 'k0', product_count: 9 },
      { id: 'k1', product_count: 9 },
    ]);
    expect(await rows(db, 'SELECT product_id FROM product_categories WHERE product_id = ?', pid(0, 0))).toEqual([]);
  });
});
