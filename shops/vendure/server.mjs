/**
 * A local, headless Vendure shop for the Vendure adapter (docs/shops.md): the Admin API only
 * (no admin UI, no email, no search plugin), SQLite through sql.js (WebAssembly, so nothing is
 * compiled on install and the Node that installs need not be the Node that runs it) or, with
 * `--db-url postgres://...` (start.ts's `VENDURE_DB=postgres`), PostgreSQL, assets on
 * disk without image processing (no sharp), its job queue in the same process, a superadmin with local credentials, and the
 * shop's setup (tax zone, 19 % tax, EUR, en/de/fr, the `pimSku` product field) made
 * idempotently on every start.
 *
 * Usage: node server.mjs --port 3100 --data .data [--db-url postgres://...]   (or PORT / DATA_DIR in
 * the environment).
 * Prints `VENDURE_READY <adminApiUrl>` once the setup is done. Local use only: it listens on
 * 127.0.0.1 and its credentials are public.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';

const require = createRequire(import.meta.url);
const { bootstrap, DefaultLogger, JobQueueService, LogLevel, LanguageCode, TransactionalConnection } =
  require('@vendure/core');

export const SUPERADMIN = { username: 'superadmin', password: 'superadmin-local' };

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const port = Number(arg('port', process.env.PORT ?? '3100'));
const dataDir = path.resolve(arg('data', process.env.DATA_DIR ?? path.join(import.meta.dirname, '.data')));
const databaseUrl = arg('db-url', '');
const assetDir = path.join(dataDir, 'assets');
mkdirSync(assetDir, { recursive: true });

/** Files under the data dir, named by content hash and original extension; no resizing. */
class DiskAssetStorage {
  safe(fileName) {
    const base = path.basename(fileName).replace(/[^A-Za-z0-9._-]/g, '_');
    return path.join(assetDir, base);
  }
  async writeFileFromBuffer(fileName, data) {
    const target = this.safe(fileName);
    await writeFile(target, data);
    return path.basename(target);
  }
  async writeFileFromStream(fileName, data) {
    const target = this.safe(fileName);
    await pipeline(data, createWriteStream(target));
    return path.basename(target);
  }
  readFileToBuffer(identifier) {
    return readFile(this.safe(identifier));
  }
  async readFileToStream(identifier) {
    return createReadStream(this.safe(identifier));
  }
  async deleteFile(identifier) {
    await rm(this.safe(identifier), { force: true });
  }
  async fileExists(fileName) {
    return existsSync(this.safe(fileName));
  }
  toAbsoluteUrl(_request, identifier) {
    return `http://127.0.0.1:${port}/assets/${identifier}`;
  }
}

/** The preview is the original file: Vendure needs one, and sharp is not needed for the adapter's tests. */
class SameFilePreview {
  async generatePreviewImage(_ctx, _mimeType, data) {
    return data;
  }
}

/** Unique names per file: Vendure asks for a name before writing, the hash keeps a re-upload of the same bytes apart. */
class HashedNaming {
  generateSourceFileName(_ctx, originalFileName, conflictFileName) {
    const stem = createHash('sha256')
      .update(`${originalFileName}:${conflictFileName ?? ''}:${Date.now()}:${Math.random()}`)
      .digest('hex')
      .slice(0, 16);
    return `${stem}-${path.basename(originalFileName)}`;
  }
  generatePreviewFileName(_ctx, sourceFileName) {
    return `preview-${sourceFileName}`;
  }
}

const config = {
  apiOptions: {
    hostname: '127.0.0.1',
    port,
    adminApiPath: 'admin-api',
    shopApiPath: 'shop-api',
    adminApiPlayground: false,
    shopApiPlayground: false,
  },
  authOptions: {
    tokenMethod: ['bearer', 'cookie'],
    superadminCredentials: { identifier: SUPERADMIN.username, password: SUPERADMIN.password },
    requireVerification: false,
  },
  // Vendure makes its tables from its entities on start (`synchronize`), on either database.
  dbConnectionOptions: databaseUrl
    ? { type: 'postgres', url: databaseUrl, synchronize: true, logging: false }
    : {
        type: 'sqljs',
        location: path.join(dataDir, 'vendure.sqlite'),
        autoSave: true,
        synchronize: true,
        logging: false,
      },
  assetOptions: {
    assetStorageStrategy: new DiskAssetStorage(),
    assetPreviewStrategy: new SameFilePreview(),
    assetNamingStrategy: new HashedNaming(),
  },
  paymentOptions: { paymentMethodHandlers: [] },
  customFields: {
    Product: [
      {
        name: 'pimSku',
        type: 'string',
        unique: true,
        nullable: true,
        public: false,
        label: [{ languageCode: LanguageCode.en, value: 'PIM SKU' }],
        description: [{ languageCode: LanguageCode.en, value: 'The SKU of the PIM master this product was written from' }],
      },
    ],
  },
  logger: new DefaultLogger({ level: LogLevel.Warn }),
  plugins: [],
};

async function gql(url, token, query, variables) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors?.length) throw new Error(`setup: ${body.errors.map((e) => e.message).join('; ')}`);
  return { data: body.data, token: response.headers.get('vendure-auth-token') };
}

/** The shop's setup, made so that a second start changes nothing. */
async function setUp(url) {
  const login = await gql(
    url,
    null,
    `mutation($u: String!, $p: String!) { login(username: $u, password: $p) { ... on CurrentUser { id } ... on ErrorResult { message } } }`,
    { u: SUPERADMIN.username, p: SUPERADMIN.password },
  );
  const token = login.token;
  if (!token) throw new Error(`setup: login failed: ${JSON.stringify(login.data)}`);
  const q = async (query, variables) => (await gql(url, token, query, variables)).data;

  await q(`mutation { updateGlobalSettings(input: { availableLanguages: [en, de, fr] }) { ... on GlobalSettings { id } } }`);

  const countries = await q(`{ countries(options: { filter: { code: { eq: "DE" } } }) { items { id } } }`);
  const countryId =
    countries.countries.items[0]?.id ??
    (
      await q(
        `mutation { createCountry(input: { code: "DE", enabled: true, translations: [{ languageCode: en, name: "Germany" }, { languageCode: de, name: "Deutschland" }] }) { id } }`,
      )
    ).createCountry.id;

  const zones = await q(`{ zones(options: { filter: { name: { eq: "Europe" } } }) { items { id } } }`);
  const zoneId =
    zones.zones.items[0]?.id ??
    (await q(`mutation($m: [ID!]) { createZone(input: { name: "Europe", memberIds: $m }) { id } }`, { m: [countryId] }))
      .createZone.id;

  const categories = await q(`{ taxCategories(options: { filter: { name: { eq: "Standard" } } }) { items { id } } }`);
  const categoryId =
    categories.taxCategories.items[0]?.id ??
    (await q(`mutation { createTaxCategory(input: { name: "Standard", isDefault: true }) { id } }`)).createTaxCategory.id;

  const rates = await q(`{ taxRates(options: { filter: { name: { eq: "Standard DE" } } }) { items { id } } }`);
  if (rates.taxRates.items.length === 0) {
    await q(
      `mutation($c: ID!, $z: ID!) { createTaxRate(input: { name: "Standard DE", enabled: true, value: 19, categoryId: $c, zoneId: $z }) { id } }`,
      { c: categoryId, z: zoneId },
    );
  }

  const channel = await q(`{ activeChannel { id } }`);
  await q(
    `mutation($id: ID!, $z: ID!) { updateChannel(input: { id: $id, defaultTaxZoneId: $z, defaultShippingZoneId: $z,
      availableLanguageCodes: [en, de, fr], defaultLanguageCode: en,
      availableCurrencyCodes: [EUR], defaultCurrencyCode: EUR, pricesIncludeTax: false }) {
      ... on Channel { id } ... on ErrorResult { errorCode message } } }`,
    { id: channel.activeChannel.id, z: zoneId },
  );
}

/** How long a write may stay in memory only before the database file is written (ms). */
const SAVE_INTERVAL_MS = 2000;

/**
 * sql.js holds the database in memory, and TypeORM's `autoSave` exports and writes the whole
 * file after every write transaction: each write cost O(database size), so a sync of a few
 * hundred products spent most of its time rewriting the file (seconds per product, growing).
 * Here a write marks the database dirty and the file is written at most every
 * SAVE_INTERVAL_MS, never inside a transaction (sql.js's export would end it), and once more
 * on shutdown: a crash of the test shop loses at most the last two seconds, which a local
 * test shop may. The answers of the Admin API are the same; only the file lags.
 */
function deferSaves(driver) {
  let timer = null;
  const schedule = () => {
    timer ??= setTimeout(() => {
      timer = null;
      if (driver.queryRunner?.isTransactionActive) return schedule();
      driver.save().catch((err) => console.error(`vendure: saving the database failed: ${err?.message ?? err}`));
    }, SAVE_INTERVAL_MS);
  };
  driver.autoSave = async () => schedule();
  return async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    await driver.save();
  };
}

const app = await bootstrap(config);
// PostgreSQL writes its own pages; only sql.js's in-memory database needs saving to its file.
const flushDatabase = databaseUrl
  ? async () => {}
  : deferSaves(app.get(TransactionalConnection).rawConnection.driver);
// The server is its own worker: jobs (collection filters, session cleaning) run in this process.
await app.get(JobQueueService).start();
const adminApiUrl = `http://127.0.0.1:${port}/admin-api`;
try {
  await setUp(adminApiUrl);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  await app.close();
  process.exit(1);
}
console.log(`VENDURE_READY ${adminApiUrl}`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    flushDatabase()
      .catch((err) => console.error(`vendure: saving the database failed: ${err?.message ?? err}`))
      .then(() => app.close())
      .finally(() => process.exit(0));
  });
}
