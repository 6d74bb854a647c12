import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Local-only values of the Worker secrets the sync and single sign-on need (docs/sync.md
 * "Secrets", docs/sso.md). They are written into the git-ignored `.dev.vars`, which
 * `wrangler dev` and `getPlatformProxy` read;
 * production sets real values with `wrangler secret put`. Fixed rather than random so a seeded
 * local state (and the e2e cache) always decrypts with the key that encrypted it.
 */
export const LOCAL_DEV_VARS: Record<string, string> = {
  SYNC_ENCRYPTION_KEY: 'local-dev-only-sync-encryption-key',
  MEDIA_URL_KEY: 'local-dev-only-media-url-key',
  SSO_ENCRYPTION_KEY: 'local-dev-only-sso-encryption-key',
  WEBHOOK_ENCRYPTION_KEY: 'local-dev-only-webhook-encryption-key',
  // webhook receivers on localhost (docs/webhooks.md); never set in production
  ALLOW_PRIVATE_TARGETS: 'true',
};

/** Adds the missing local values to `.dev.vars` (other entries are kept). */
export function ensureDevVars(root = process.cwd()): void {
  const path = join(root, '.dev.vars');
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const present = new Set(current.split('\n').map((line) => line.split('=')[0]!.trim()));
  const missing = Object.entries(LOCAL_DEV_VARS).filter(([name]) => !present.has(name));
  if (missing.length === 0) return;
  const prefix = current === '' || current.endsWith('\n') ? '' : '\n';
  appendFileSync(path, prefix + missing.map(([name, value]) => `${name}=${value}\n`).join(''));
}
