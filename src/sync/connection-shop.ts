import type { SyncConnectionShop, syncConnections } from '../db/schema';
import { AppError, badRequest, conflict } from '../kernel/app-error';
import { sha256Hex } from '../kernel/hashing';
import {
  credentialsComplete,
  defaultMapping,
  fillMapping,
  TARGET_CREDENTIALS,
  type TargetKind,
} from './protocol/target';
import { decryptSecret, encryptSecret } from './secret-box';
import type { ShopInput } from './sync.schemas';

type ConnectionRow = typeof syncConnections.$inferSelect;

/**
 * The additional data the shop's credentials are sealed with: the connection id marked apart
 * from the secret's, so neither ciphertext decrypts in the other's column.
 */
const credentialsAad = (connectionId: string) => `${connectionId}:shop-credentials`;

/** What one kind needs, as GetShopDefaults answers it: the web app renders its form from this. */
export function shopDefaults(kind: TargetKind) {
  return {
    kind,
    mapping: defaultMapping(kind),
    urlRequired: kind !== 'reference',
    credentials: TARGET_CREDENTIALS[kind],
  };
}

/** "clientId and clientSecret", "username and password, or token". */
function neededCredentials(kind: TargetKind): string {
  return TARGET_CREDENTIALS[kind].map((set) => set.map((f) => f.name).join(' and ')).join(', or ');
}

/** A connection's shop as reads show it: the mapping with the kind's defaults, never the credentials. */
export function shopOut(row: Pick<ConnectionRow, 'shop' | 'shopCredentialsCiphertext'>) {
  if (!row.shop) return null;
  return {
    kind: row.shop.kind,
    url: row.shop.url || null,
    mapping: fillMapping(row.shop.kind, row.shop.mapping),
    hasCredentials: row.shopCredentialsCiphertext !== null,
  };
}

/** The shop columns a write sets; empty when the input leaves the shop as it is. */
export interface ShopColumns {
  shop?: SyncConnectionShop | null;
  shopCredentialsCiphertext?: string | null;
}

/**
 * The columns for a connection's new shop (one rule for add and update): `undefined` keeps the
 * shop, `null` removes it with its credentials. Credentials must fill one of the kind's sets;
 * left out, the stored ones stay unless the kind changes (they belong to another engine).
 * Throws 400 before anything is written.
 */
export async function shopColumns(
  encryptionKey: string | undefined,
  connectionId: string,
  input: ShopInput | null | undefined,
  current: Pick<ConnectionRow, 'shop' | 'shopCredentialsCiphertext'> | null,
): Promise<ShopColumns> {
  if (input === undefined) return {};
  if (input === null) return { shop: null, shopCredentialsCiphertext: null };
  const shop: SyncConnectionShop = {
    kind: input.kind,
    url: (input.url ?? '').replace(/\/+$/, ''),
    mapping: input.mapping ?? {},
  };
  const needs = neededCredentials(input.kind);
  if (input.credentials !== undefined) {
    if (!credentialsComplete(input.kind, input.credentials))
      throw badRequest(`shop.credentials: a ${input.kind} shop needs ${needs}`);
    const empty = Object.keys(input.credentials).length === 0;
    return {
      shop,
      shopCredentialsCiphertext: empty
        ? null
        : await encryptSecret(encryptionKey, credentialsAad(connectionId), JSON.stringify(input.credentials)),
    };
  }
  const kept = current?.shop?.kind === input.kind ? (current.shopCredentialsCiphertext ?? null) : null;
  if (kept === null && !credentialsComplete(input.kind, {}))
    throw badRequest(`shop.credentials: required for a new shop or another kind (a ${input.kind} shop needs ${needs})`);
  return { shop, shopCredentialsCiphertext: kept };
}

/** True when the write points the connector at another shop: the cached mappings were the old shop's. */
export function shopMoved(current: Pick<ConnectionRow, 'shop'>, columns: ShopColumns): boolean {
  if (columns.shop === undefined) return false;
  const before = current.shop;
  const after = columns.shop;
  return (before?.kind ?? null) !== (after?.kind ?? null) || (before?.url ?? null) !== (after?.url ?? null);
}

async function openCredentials(encryptionKey: string | undefined, connectionId: string, sealed: string) {
  try {
    return await decryptSecret(encryptionKey, credentialsAad(connectionId), sealed);
  } catch (err) {
    if (err instanceof AppError && err.code === 'conflict')
      throw conflict(
        "the shop's credentials cannot be decrypted (was SYNC_ENCRYPTION_KEY changed?); set them again with UpdateConnection",
      );
    throw err;
  }
}

/** The body of PUT /target for a connection's shop, with its credentials decrypted for this call only. */
export async function targetBodyOf(
  encryptionKey: string | undefined,
  row: Pick<ConnectionRow, 'id' | 'shop' | 'shopCredentialsCiphertext'>,
): Promise<{ body: string; version: string } | null> {
  if (!row.shop) return null;
  const credentials = row.shopCredentialsCiphertext
    ? (JSON.parse(await openCredentials(encryptionKey, row.id, row.shopCredentialsCiphertext)) as Record<
        string,
        string
      >)
    : {};
  const { kind, url, mapping } = row.shop;
  const body = JSON.stringify({ kind, ...(url ? { url } : {}), credentials, mapping });
  // What a run compares to know whether the connector's target is still this one: the
  // ciphertext changes with every new credential, and a hash of it says nothing about them.
  const version = await sha256Hex(JSON.stringify([kind, url, mapping, row.shopCredentialsCiphertext]));
  return { body, version };
}
