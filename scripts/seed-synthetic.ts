/**
 * Generates a large synthetic catalog for benchmarks and scale tests: a 3-level category tree
 * (10 x 10 x 10), master products with ETIM classification (5 features), 3 typed attribute
 * values, a media reference and a category placement each, and every fifth master with 3
 * variants (own values and features). Rows are written as multi-row INSERTs through D1
 * `exec` in statements under D1's 100 KB limit; fingerprints are computed with the service's
 * own `syncRecord` and spot-checked against `refreshFingerprints`' loader afterwards.
 * `--extras` also gives every fifth master a price list (3 quantity tiers in 2 price types),
 * 5 references to the next masters and 3 media links (issue 19's bench:import catalog;
 * scripts/lib/seed-extras.ts).
 *
 *   npm run seed:synthetic -- --products 100000 [--persist-to DIR] [--company NAME] [--extras] [--languages deu,eng,fra]
 *
 * `--languages`: the catalog publishes these languages, the first its default (the products' own
 * columns); every product and variant gets a translated name in each further language
 * (`translations`, docs/languages.md), which the search indexes (docs/search.md, "Languages").
 *
 * Prints one JSON line: { companyId, departmentId, catalogId, email, password, masters, variants }.
 */
import { hashPassword } from '../src/accounts/passwords';
import { seedReferenceData } from '../src/classification/reference-data';
import { createDb } from '../src/db/client';
import { newId } from '../src/kernel/ids';
import { loadProductAggregates, type ProductAggregate, type ProductNode } from '../src/model/product-aggregate';
import { fingerprintOf, fingerprintsOf, syncRecord } from '../src/records/sync-record';
import { argValue, localBindings } from './lib/platform';
import { extrasOf, writeExtras } from './lib/seed-extras';
import { isLanguageCode } from '../src/kernel/languages';

const MAX_STATEMENT_BYTES = 90_000;
/** Distinct image files the synthetic products share (scripts/seed-synthetic.ts "images"). */
const IMAGE_COUNT = 20;

const q = (value: string | number | null): string =>
  value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${value.replace(/'/g, "''")}'`;

/** Buffers rows per table and flushes them as multi-row INSERT lines through D1 exec. */
export class SqlWriter {
  private lines: string[] = [];
  private bytes = 0;
  private pending = new Map<string, { columns: string; rows: string[]; size: number }>();

  constructor(private readonly db: D1Database) {}

  async insert(table: string, columns: string[], values: (string | number | null)[]): Promise<void> {
    const row = `(${values.map(q).join(',')})`;
    const key = `${table}(${columns.map((c) => `"${c}"`).join(',')})`;
    let entry = this.pending.get(key);
    if (!entry) {
      entry = { columns: key, rows: [], size: 0 };
      this.pending.set(key, entry);
    }
    // Emit every table's rows together, parents first, so foreign keys always hold.
    if (entry.size + row.length > MAX_STATEMENT_BYTES) this.emitAll();
    entry.rows.push(row);
    entry.size += row.length + 1;
    if (this.bytes > 2_000_000) {
      this.emitAll();
      await this.flushLines();
    }
  }

  private emit(entry: { columns: string; rows: string[]; size: number }): void {
    if (entry.rows.length === 0) return;
    const line = `INSERT INTO ${entry.columns} VALUES ${entry.rows.join(',')};`;
    this.lines.push(line);
    this.bytes += line.length;
    entry.rows = [];
    entry.size = 0;
  }

  private async flushLines(): Promise<void> {
    if (this.lines.length === 0) return;
    await this.db.exec(this.lines.join('\n'));
    this.lines = [];
    this.bytes = 0;
  }

  private emitAll(): void {
    for (const entry of this.pending.values()) this.emit(entry);
  }

  /** Emits everything buffered, in table insertion order (parents before children). */
  async flush(): Promise<void> {
    this.emitAll();
    await this.flushLines();
  }
}

const PRODUCT_COLUMNS = [
  'id',
  'company_id',
  'catalog_id',
  'parent_id',
  'sku',
  'name',
  'description',
  'gtin',
  'manufacturer_name',
  'manufacturer_pid',
  'unit',
  'price',
  'price_quantity',
  'delivery_time_days',
  'status',
  'revision',
  'fingerprint',
  'fingerprint_revision',
  'created_at',
  'updated_at',
];

/** "Leitungsschutzschalter" in the languages the synthetic catalog may publish besides German. */
const BREAKER: Record<string, [string, string, string]> = {
  eng: ['Circuit breaker', 'type', 'variant'],
  fra: ['Disjoncteur', 'type', 'variante'],
  nld: ['Installatieautomaat', 'type', 'variant'],
  ita: ['Interruttore automatico', 'tipo', 'variante'],
};

/** The translated names of one product (`suffix`: a variant's number) in `languages`, as ProductNode.translations. */
function translatedNames(languages: string[], amps: number, i: number, suffix: string) {
  if (languages.length === 0) return undefined;
  return Object.fromEntries(
    languages.map((lang) => {
      const [word, type, variant] = BREAKER[lang] ?? [`Leitungsschutzschalter (${lang})`, 'Typ', 'Variante'];
      return [lang, { name: `${word} ${amps} A ${type} ${i}${suffix ? ` ${variant}${suffix}` : ''}` }];
    }),
  );
}

function gtinFor(n: number): string {
  const body = `40${String(n).padStart(10, '0')}`;
  const sum = [...body].reverse().reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return body + String((10 - (sum % 10)) % 10);
}

async function main() {
  const products = Number(argValue('--products', '1000'));
  const extras = process.argv.includes('--extras');
  // Ids of every master up front, so a reference to a later master is written resolved.
  const masterIds = Array.from({ length: products }, () => newId());
  const companyName = argValue('--company', 'Synthetic Bench GmbH')!;
  const languages = argValue('--languages', 'deu')!
    .split(',')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  for (const l of languages) if (!isLanguageCode(l)) throw new Error(`--languages: ${l} is not an ISO 639-2 code`);
  const [defaultLanguage, ...otherLanguages] = languages as [string, ...string[]];
  const proxy = await localBindings();
  const d1 = proxy.env.DB;
  const db = createDb(d1);
  await seedReferenceData(db);
  const writer = new SqlWriter(d1);
  const now = new Date().toISOString();

  const companyId = newId();
  const departmentId = newId();
  const catalogId = newId();
  const userId = newId();
  const email = `bench-${companyId.slice(-8)}@bench.test`;
  const password = 'bench-password-1';
  const { hash, salt } = await hashPassword(password);
  await writer.insert(
    'companies',
    ['id', 'name', 'languages', 'default_language'],
    [companyId, companyName, JSON.stringify(languages), defaultLanguage],
  );
  await writer.insert('departments', ['id', 'company_id', 'name'], [departmentId, companyId, 'Bench']);
  await writer.insert(
    'users',
    ['id', 'email', 'name', 'password_hash', 'password_salt', 'security_stamp', 'ai_may_edit_classifications'],
    [userId, email, 'Bench User', hash, salt, crypto.randomUUID(), 1],
  );
  await writer.insert(
    'memberships',
    ['user_id', 'company_id', 'role', 'default_department_id'],
    [userId, companyId, 'editor', departmentId],
  );
  const attributes = { weight_kg: newId(), packaging: newId(), country_of_origin: newId() };
  await writer.insert(
    'attributes',
    ['id', 'company_id', 'code', 'name', 'type', 'unit', 'enum_values'],
    [attributes.weight_kg, companyId, 'weight_kg', 'Gewicht', 'number', 'KGM', null],
  );
  await writer.insert(
    'attributes',
    ['id', 'company_id', 'code', 'name', 'type', 'unit', 'enum_values'],
    [attributes.packaging, companyId, 'packaging', 'Verpackung', 'enum', null, JSON.stringify(['box', 'ring', 'drum'])],
  );
  await writer.insert(
    'attributes',
    ['id', 'company_id', 'code', 'name', 'type', 'unit', 'enum_values'],
    [attributes.country_of_origin, companyId, 'country_of_origin', 'Ursprungsland', 'text', null, null],
  );

  // A small set of real image files shared by all products (as manufacturers' pictures are), so
  // a sync can send and a connector can fetch them: R2 objects with their sha256.
  const images: { key: string; sha256: string }[] = [];
  for (let n = 0; n < IMAGE_COUNT; n++) {
    const bytes = new TextEncoder().encode(
      `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><text x="10" y="35">Bild ${n + 1}</text></svg>`,
    );
    const key = `media/${companyId}/${catalogId}/synthetic/image-${n + 1}.svg`;
    await proxy.env.FILES.put(key, bytes, { httpMetadata: { contentType: 'image/svg+xml' } });
    images.push({
      key,
      sha256: [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
        .map((b) => b.toString(16).padStart(2, '0'))
        .join(''),
    });
  }

  const leafIds: string[] = [];
  const leafPaths = new Map<string, string[]>();
  const categoryRows: (string | number | null)[][] = [];
  for (let a = 0; a < 10; a++) {
    const top = newId();
    categoryRows.push([top, companyId, catalogId, null, `Bereich ${a + 1}`, a]);
    for (let b = 0; b < 10; b++) {
      const mid = newId();
      categoryRows.push([mid, companyId, catalogId, top, `Gruppe ${a + 1}.${b + 1}`, b]);
      for (let c = 0; c < 10; c++) {
        const leaf = newId();
        categoryRows.push([leaf, companyId, catalogId, mid, `Untergruppe ${a + 1}.${b + 1}.${c + 1}`, c]);
        leafIds.push(leaf);
        leafPaths.set(leaf, [`Bereich ${a + 1}`, `Gruppe ${a + 1}.${b + 1}`, `Untergruppe ${a + 1}.${b + 1}.${c + 1}`]);
      }
    }
  }

  let variantCount = 0;
  let serial = 0;
  const makeNode = (
    id: string,
    parentId: string | null,
    sku: string,
    name: string,
    price: string,
    features: [string, string, string | null][],
    packaging: string,
  ): ProductNode => {
    serial++;
    const linkId = newId();
    const product = {
      id,
      companyId,
      catalogId,
      parentId,
      sku,
      name,
      description: `${name}. Synthetic product ${serial} for scale tests: rated for continuous operation, RoHS compliant, <tested> & "certified".`,
      gtin: gtinFor(serial),
      manufacturerName: `Hersteller ${serial % 50}`,
      manufacturerPid: `MPN-${serial}`,
      unit: 'C62',
      price,
      priceQuantity: 1,
      contentUnit: null,
      contentPerUnit: null,
      quantityMin: null,
      quantityInterval: null,
      keywords: null,
      deliveryTimeDays: 3,
      status: 'active' as const,
      revision: 0,
      fingerprint: null,
      fingerprintRevision: -1,
      createdAt: now,
      updatedAt: now,
    };
    const node: ProductNode = {
      product,
      values: [
        { code: 'country_of_origin', type: 'text', value: 'DE', unit: null },
        { code: 'packaging', type: 'enum', value: packaging, unit: null },
        { code: 'weight_kg', type: 'number', value: String((serial % 97) / 10 + 0.1), unit: 'KGM' },
      ],
      classification: {
        linkId,
        name,
        classificationGroups: 1,
        classes: [{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042' }],
        features: features.map(([code, value, unit]) => ({ group: 'ETIM', code, value, unit })),
      },
      media: [
        {
          mediaId: newId(),
          purpose: 'normal',
          fileName: `${sku}.svg`,
          contentType: 'image/svg+xml',
          size: 120,
          storageKey: images[serial % IMAGE_COUNT]!.key,
          sha256: images[serial % IMAGE_COUNT]!.sha256,
          description: null,
        },
      ],
      references: [],
    };
    return node;
  };

  let lastLinkKey =
    (await d1.prepare('SELECT coalesce(max(id), 0) AS n FROM classification_links').first<{ n: number }>())?.n ?? 0;
  const writeNode = async (node: ProductNode, fingerprint: string | null) => {
    const p = node.product;
    await writer.insert('products', PRODUCT_COLUMNS, [
      p.id,
      companyId,
      catalogId,
      p.parentId,
      p.sku,
      p.name,
      p.description,
      p.gtin,
      p.manufacturerName,
      p.manufacturerPid,
      p.unit,
      p.price,
      p.priceQuantity,
      p.deliveryTimeDays,
      p.status,
      0,
      fingerprint,
      fingerprint ? 0 : -1,
      now,
      now,
    ]);
    for (const v of node.values) {
      const attributeId = attributes[v.code as keyof typeof attributes];
      await writer.insert(
        'attribute_values',
        ['element_id', 'attribute_id', 'value', 'number_value'],
        [p.id, attributeId, v.value, v.type === 'number' ? Number(v.value) : null],
      );
    }
    const c = node.classification!;
    // Classes and features reference the link row's integer key (migration 0010).
    const linkKey = ++lastLinkKey;
    await writer.insert(
      'classification_links',
      ['id', 'link_id', 'company_id', 'element_id', 'name', 'classification_groups'],
      [linkKey, c.linkId, companyId, p.id, c.name, 1],
    );
    await writer.insert(
      'classification_link_classes',
      ['link_id', 'group', 'system', 'code'],
      [linkKey, 'ETIM', 'ETIM-9.0', 'EC000042'],
    );
    for (const f of c.features)
      await writer.insert(
        'classification_link_features',
        ['link_id', 'group', 'code', 'value', 'unit'],
        [linkKey, f.group, f.code, f.value, f.unit],
      );
    for (const [lang, fields] of Object.entries(node.translations ?? {}))
      for (const [field, value] of Object.entries(fields))
        await writer.insert('translations', ['element_id', 'field', 'lang', 'value'], [p.id, field, lang, value]);
    for (const m of node.media) {
      await writer.insert(
        'media',
        [
          'id',
          'element_id',
          'purpose',
          'file_name',
          'content_type',
          'size',
          'storage_key',
          'sha256',
          'sort_order',
          'url',
          'mime_code',
        ],
        [
          m.mediaId,
          p.id,
          m.purpose,
          m.fileName,
          m.contentType,
          m.size,
          m.storageKey,
          m.sha256,
          m.sortOrder ?? 0,
          m.url ?? null,
          m.mimeCode ?? null,
        ],
      );
    }
  };

  await writer.insert(
    'catalogs',
    [
      'id',
      'company_id',
      'department_id',
      'name',
      'catalog_type',
      'catalog_version',
      'category_count',
      'product_count',
      'language',
      'languages',
    ],
    [
      catalogId,
      companyId,
      departmentId,
      `Synthetic ${products}`,
      'full',
      '1.0',
      categoryRows.length,
      0,
      defaultLanguage,
      JSON.stringify(languages),
    ],
  );
  for (const row of categoryRows)
    await writer.insert('categories', ['id', 'company_id', 'catalog_id', 'parent_id', 'name', 'sort_order'], row);

  const started = Date.now();
  const characteristics = ['EV000040', 'EV000041', 'EV000042'];
  for (let i = 0; i < products; i++) {
    const masterId = masterIds[i]!;
    const sku = `GEN-${String(i).padStart(7, '0')}`;
    const amps = [6, 10, 13, 16, 20, 25, 32][i % 7]!;
    const baseFeatures: [string, string, string | null][] = [
      ['EF000001', '-25..55', 'CEL'],
      ['EF000008', '230', 'VLT'],
      ['EF000010', String((i % 3) + 1), null],
      ['EF000073', characteristics[i % 3]!, null],
      ['EF000133', String(amps), 'AMP'],
    ];
    const master = makeNode(
      masterId,
      null,
      sku,
      `Leitungsschutzschalter ${amps} A Typ ${i}`,
      (3 + (i % 500) / 10).toFixed(2),
      baseFeatures,
      'box',
    );
    master.translations = translatedNames(otherLanguages, amps, i, '');
    const variants: ProductNode[] = [];
    if (i % 5 === 0) {
      for (let v = 0; v < 3; v++) {
        const variantAmps = [10, 16, 25][v]!;
        const features = baseFeatures.map(
          ([code, value, unit]) =>
            [code, code === 'EF000133' ? String(variantAmps) : value, unit] as [string, string, string | null],
        );
        variants.push(
          makeNode(
            newId(),
            masterId,
            `${sku}-V${v + 1}`,
            `Leitungsschutzschalter ${variantAmps} A Typ ${i} Variante ${v + 1}`,
            (4 + v).toFixed(2),
            features,
            'ring',
          ),
        );
        variants.at(-1)!.translations = translatedNames(otherLanguages, variantAmps, i, ` ${v + 1}`);
      }
      variants.sort((a, b) =>
        a.product.sku! < b.product.sku!
          ? -1
          : a.product.sku! > b.product.sku!
            ? 1
            : a.product.id < b.product.id
              ? -1
              : 1,
      );
      variantCount += variants.length;
    }
    const extra = extras && i % 5 === 0 ? extrasOf(companyId, i, master, masterIds) : null;
    if (extra) Object.assign(master, extra.node);
    const categoryId = leafIds[i % leafIds.length]!;
    const aggregate: ProductAggregate = {
      ...master,
      categoryIds: [categoryId],
      variants,
      publishedLanguages: languages,
    };
    const fingerprint = await fingerprintOf(
      syncRecord(aggregate, { path: (id) => leafPaths.get(id), links: () => undefined }),
    );
    await writeNode(master, fingerprint);
    // the SKU as the triggers of migration 0047 would copy it (given here, they need not)
    await writer.insert('product_categories', ['product_id', 'category_id', 'sku'], [masterId, categoryId, sku]);
    if (extra) await writeExtras(writer, catalogId, masterId, extra);
    for (const variant of variants) await writeNode(variant, null);
    if ((i + 1) % 10_000 === 0)
      process.stderr.write(`  ${i + 1} masters generated (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  }
  await writer.flush();
  await d1
    .prepare('UPDATE catalogs SET product_count = ? WHERE id = ?')
    .bind(products + variantCount, catalogId)
    .run();

  // Spot check: the loader the service uses must reproduce the stored fingerprints. Ten masters
  // at random rowids, each found by a rowid range read (ORDER BY random() sorted the whole
  // catalog in one statement and failed at 1M products).
  const { top } = (await d1.prepare('SELECT max(rowid) AS top FROM products').first<{ top: number }>()) ?? { top: 0 };
  const picked = new Map<string, string>();
  for (let i = 0; i < 10; i++) {
    const row = await d1
      .prepare(
        'SELECT id, fingerprint FROM products WHERE rowid >= ? AND catalog_id = ? AND parent_id IS NULL ORDER BY rowid LIMIT 1',
      )
      .bind(Math.floor(Math.random() * top), catalogId)
      .first<{ id: string; fingerprint: string }>();
    if (row) picked.set(row.id, row.fingerprint);
  }
  const sample = { results: [...picked].map(([id, fingerprint]) => ({ id, fingerprint })) };
  const loaded = await loadProductAggregates(
    db,
    companyId,
    sample.results.map((r) => r.id),
  );
  const recomputed = await fingerprintsOf(db, companyId, loaded);
  for (const aggregate of loaded) {
    const expected = sample.results.find((r) => r.id === aggregate.product.id)!.fingerprint;
    if (recomputed.get(aggregate.product.id) !== expected)
      throw new Error(`fingerprint mismatch for ${aggregate.product.sku}`);
  }
  await proxy.dispose();
  console.log(
    JSON.stringify({
      companyId,
      departmentId,
      catalogId,
      email,
      password,
      masters: products,
      variants: variantCount,
      seconds: (Date.now() - started) / 1000,
    }),
  );
}

await main();
