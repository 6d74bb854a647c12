import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { must, run, startPostgres } from '../lib/postgres';

/**
 * A real Medusa v2 server for the Medusa adapter's tests (docs/shops.md): Debian's PostgreSQL
 * 15 in its own data directory and port, `medusa db:migrate`, an admin user, `medusa start`,
 * then the shop's setup through its own Admin API (EUR, locales, a region for DE, a tax region
 * with DE-19 / DE-7) and a fresh secret API key. Everything is idempotent: a second start on
 * the same data directory reuses the cluster, database, user, region and tax region.
 * PostgreSQL is shops/lib/postgres.ts (shared with Vendure's `VENDURE_DB=postgres`).
 */
export interface MedusaShop {
  /** The server's base URL (`http://127.0.0.1:9100`). */
  url: string;
  email: string;
  password: string;
  /** A secret API key (`sk_...`), sent as Basic auth with an empty password. */
  apiKey: string;
  stop(): Promise<void>;
}

export interface StartMedusaOptions {
  port?: number;
  pgPort?: number;
  /** Where PostgreSQL's cluster and the logs go. */
  dataDir: string;
  /** The Medusa project (medusa-config.ts, node_modules); `shops/medusa` under the working directory by default. */
  shopDir?: string;
  /** Log Medusa's and PostgreSQL's output to the console as well as to dataDir. */
  verbose?: boolean;
}

const EMAIL = 'admin@pim.test';
const PASSWORD = 'pim-medusa-admin';

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGTERM');
  });
}

async function waitForHealth(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`medusa start exited with ${child.exitCode}; see ${logFile}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`medusa start did not answer /health within 180 s; see ${logFile}`);
}

export async function startMedusa(options: StartMedusaOptions): Promise<MedusaShop> {
  const port = options.port ?? 9100;
  const pgPort = options.pgPort ?? 55432;
  const dataDir = resolve(options.dataDir);
  const shopDir = resolve(options.shopDir ?? join(process.cwd(), 'shops/medusa'));
  const cli = join(shopDir, 'node_modules/@medusajs/cli/cli.js');
  if (!existsSync(cli)) throw new Error(`Medusa is not installed in ${shopDir}: run npm run shops:install`);
  mkdirSync(dataDir, { recursive: true });

  const pg = await startPostgres(dataDir, pgPort, 'medusa');
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: pg.url,
    PORT: String(port),
    MEDUSA_BACKEND_URL: url,
    MEDUSA_FF_TRANSLATION: 'true',
    MEDUSA_DISABLE_TELEMETRY: 'true',
  };
  const medusa = (args: string[]) => run(process.execPath, [cli, ...args], { cwd: shopDir, env });
  let server: ChildProcess | null = null;
  try {
    await must('medusa db:migrate', medusa(['db:migrate']));
    const user = await medusa(['user', '-e', EMAIL, '-p', PASSWORD]);
    if (user.code !== 0 && !/already exists/i.test(user.output)) {
      throw new Error(`medusa user failed:\n${user.output.slice(-4000)}`);
    }
    const logFile = join(dataDir, 'medusa.log');
    const log = createWriteStream(logFile, { flags: 'a' });
    server = spawn(process.execPath, [cli, 'start'], { cwd: shopDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout?.pipe(log);
    server.stderr?.pipe(log);
    if (options.verbose) {
      server.stdout?.pipe(process.stdout);
      server.stderr?.pipe(process.stderr);
    }
    await waitForHealth(url, server, logFile);
    const apiKey = await setUpShop(url);
    const running = server;
    return {
      url,
      email: EMAIL,
      password: PASSWORD,
      apiKey,
      stop: async () => {
        await stopChild(running);
        await pg.stop();
      },
    };
  } catch (err) {
    if (server) await stopChild(server);
    await pg.stop();
    throw err;
  }
}

/** The shop's setup through its Admin API (idempotent); answers a new secret API key. */
async function setUpShop(url: string): Promise<string> {
  const login = await fetch(`${url}/auth/user/emailpass`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!login.ok) throw new Error(`admin login failed: HTTP ${login.status} ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  const admin = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };

  const { stores } = await admin<{ stores: { id: string }[] }>('GET', '/admin/stores');
  const store = stores[0];
  if (!store) throw new Error('Medusa has no store after db:migrate');
  await admin('POST', `/admin/stores/${store.id}`, {
    name: 'PIM test shop',
    supported_currencies: [{ currency_code: 'eur', is_default: true }],
    supported_locales: [{ locale_code: 'de-DE' }, { locale_code: 'en-GB' }, { locale_code: 'fr-FR' }],
  });

  const { regions } = await admin<{ regions: { id: string }[] }>('GET', '/admin/regions?name=Deutschland');
  if (regions.length === 0) {
    await admin('POST', '/admin/regions', { name: 'Deutschland', currency_code: 'eur', countries: ['de'] });
  }

  const { tax_regions } = await admin<{ tax_regions: { id: string }[] }>(
    'GET',
    '/admin/tax-regions?country_code=de&parent_id[$eq]=null',
  );
  if (tax_regions.length === 0) {
    const { tax_region } = await admin<{ tax_region: { id: string } }>('POST', '/admin/tax-regions', {
      country_code: 'de',
      provider_id: 'tp_system',
      default_tax_rate: { name: 'Regelsteuersatz', code: 'DE-19', rate: 19 },
    });
    await admin('POST', '/admin/tax-rates', {
      tax_region_id: tax_region.id,
      name: 'Ermäßigt',
      code: 'DE-7',
      rate: 7,
      is_default: false,
    });
  }

  const { api_key } = await admin<{ api_key: { token: string } }>('POST', '/admin/api-keys', {
    title: `pim-adapter-${Date.now()}`,
    type: 'secret',
  });
  return api_key.token;
}
