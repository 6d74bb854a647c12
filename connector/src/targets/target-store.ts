import type { TargetConfig, TargetKind, TargetMapping } from '../adapters/target-adapter';
import { openCredentials, sealCredentials } from './credentials';

/** A key's target as stored: the credentials still sealed. */
export interface StoredTarget {
  keyId: string;
  kind: TargetKind;
  url: string;
  mapping: TargetMapping;
  sealed: { ciphertext: string; iv: string };
  updatedAt: string;
}

interface TargetRow {
  key_id: string;
  kind: TargetKind;
  url: string;
  credentials_ciphertext: string;
  credentials_iv: string;
  mapping: string;
  updated_at: string;
}

export async function loadTarget(db: D1Database, keyId: string): Promise<StoredTarget | null> {
  const row = await db.prepare('SELECT * FROM targets WHERE key_id = ?1').bind(keyId).first<TargetRow>();
  if (!row) return null;
  return {
    keyId: row.key_id,
    kind: row.kind,
    url: row.url,
    mapping: JSON.parse(row.mapping) as TargetMapping,
    sealed: { ciphertext: row.credentials_ciphertext, iv: row.credentials_iv },
    updatedAt: row.updated_at,
  };
}

/** The full config with its credentials, or null when they were sealed under a secret since rotated. */
export async function unsealTarget(target: StoredTarget, secret: string): Promise<TargetConfig | null> {
  const credentials = await openCredentials(target.sealed, secret, target.keyId);
  if (!credentials) return null;
  return { kind: target.kind, url: target.url, credentials, mapping: target.mapping };
}

const CLEAR_MIRROR = [
  // first, so the products' removal marks no product for sending again (migration 0005)
  'DELETE FROM target_mpn_references WHERE key_id = ?1',
  'DELETE FROM target_products WHERE key_id = ?1',
  'DELETE FROM target_batch_records WHERE key_id = ?1',
  'DELETE FROM target_batches WHERE key_id = ?1',
  // what the old shop was sent of each category picture (media/picture-revalidation.ts)
  'DELETE FROM category_pictures WHERE key_id = ?1',
];

/**
 * Stores a key's target, its credentials sealed under the key's current secret. Pointing the
 * key at another shop (kind or URL changed) clears the mirror, whose ids belong to the old one:
 * the next run finds the products again by SKU.
 */
export async function saveTarget(
  db: D1Database,
  keyId: string,
  secret: string,
  config: TargetConfig,
  now = new Date(),
): Promise<void> {
  const previous = await loadTarget(db, keyId);
  const sealed = await sealCredentials(config.credentials, secret, keyId);
  const statements = [
    db
      .prepare(
        `INSERT INTO targets (key_id, kind, url, credentials_ciphertext, credentials_iv, mapping, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (key_id) DO UPDATE SET kind = excluded.kind, url = excluded.url,
           credentials_ciphertext = excluded.credentials_ciphertext, credentials_iv = excluded.credentials_iv,
           mapping = excluded.mapping, updated_at = excluded.updated_at`,
      )
      .bind(
        keyId,
        config.kind,
        config.url,
        sealed.ciphertext,
        sealed.iv,
        JSON.stringify(config.mapping),
        now.toISOString(),
      ),
  ];
  if (previous && (previous.kind !== config.kind || previous.url !== config.url)) {
    statements.unshift(...CLEAR_MIRROR.map((sql) => db.prepare(sql).bind(keyId)));
  }
  await db.batch(statements);
}

/** Removes a key's target and its mirror: the key writes into the reference store again. */
export async function deleteTarget(db: D1Database, keyId: string): Promise<boolean> {
  const results = await db.batch([
    ...CLEAR_MIRROR.map((sql) => db.prepare(sql).bind(keyId)),
    db.prepare('DELETE FROM targets WHERE key_id = ?1').bind(keyId),
  ]);
  return (results.at(-1)?.meta.changes ?? 0) > 0;
}
