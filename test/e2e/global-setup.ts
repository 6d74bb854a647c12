import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate, run, startDevServer } from '../../scripts/lib/dev-server';

const ROOT = process.cwd();

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The seeded state depends on the schema, the seed and the domain code: cache it by their hash. */
export function stateFingerprint(): string {
  const hash = createHash('sha256');
  for (const file of [
    ...filesUnder(join(ROOT, 'migrations')),
    ...filesUnder(join(ROOT, 'scripts')),
    ...filesUnder(join(ROOT, 'src')),
  ].sort()) {
    hash.update(file).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The migrated and seeded demo state, built once per fingerprint; tests that need a server of their own copy it. */
async function seededCache(): Promise<string> {
  const cache = join(ROOT, 'node_modules', '.cache', 'pim-e2e', stateFingerprint());
  if (!existsSync(join(cache, 'ready'))) {
    rmSync(cache, { recursive: true, force: true });
    await migrate(cache);
    await run('npm', ['run', 'seed', '--', '--persist-to', cache]);
    cpSync(join(ROOT, 'package.json'), join(cache, 'ready'));
  }
  return cache;
}

async function seededState(cache: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pim-e2e-'));
  cpSync(cache, dir, { recursive: true });
  return dir;
}

/**
 * Starts `wrangler dev` on a free port with a fresh copy of the seeded demo state and hands
 * its URL to the tests (`inject('baseUrl')`, `process.env.E2E_BASE_URL`).
 */
export default async function setup(project: TestProject) {
  const cache = await seededCache();
  const persistTo = await seededState(cache);
  const server = await startDevServer(persistTo);
  const baseUrl = server.baseUrl;
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_PERSIST_DIR = persistTo;
  project.provide('baseUrl', baseUrl);
  project.provide('persistDir', persistTo);
  project.provide('seededState', cache);
  return async () => {
    server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    persistDir: string;
    /** The seeded demo state to copy for a server of a test's own (never written to). */
    seededState: string;
  }
}
