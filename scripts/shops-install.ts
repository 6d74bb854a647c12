/**
 * Installs the local test shops (shops/vendure, shops/medusa: each its own npm package, so their
 * large trees stay out of the PIM's) when their node_modules are missing or older than their
 * lock file. `npm run test:shops` runs it first, so a fresh clone's `npm test` needs no extra
 * step; Medusa also needs PostgreSQL 15 (Debian's postgresql-15, which .ci/run installs).
 * Shops named as arguments (`tsx scripts/shops-install.ts vendure`) install only those.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

const named = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const shop of named.length > 0 ? named : ['vendure', 'medusa']) {
  const dir = join(ROOT, 'shops', shop);
  const marker = join(dir, 'node_modules', '.package-lock.json');
  const lock = join(dir, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) continue;
  console.log(`Installing the local ${shop} shop (npm --prefix shops/${shop} install) ...`);
  const result = spawnSync('npm', ['--prefix', dir, 'install', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
