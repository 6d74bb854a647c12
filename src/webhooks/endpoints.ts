import { and, asc, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { assertAdmin } from '../accounts/admin-only';
import type { Database } from '../db/client';
import { webhookEndpoints } from '../db/schema';
import { AppError, badRequest, conflict, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { newId } from '../kernel/ids';
import { isUsableKey, seal, unseal } from '../kernel/secret-box';
import { refusedUrlReason } from '../sync/protocol/url-guard';
import { position } from './dispatch';
import { newSigningSecret } from './signing';
import {
  MAX_ENDPOINTS,
  type AddEndpointDto,
  type EndpointOut,
  type EndpointWithSecretOut,
  type UpdateEndpointDto,
} from './webhook.schemas';

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** What endpoint management needs besides the database: the sealing key and the SSRF switch. */
export interface EndpointDeps {
  db: Database;
  /** Worker secret WEBHOOK_ENCRYPTION_KEY (docs/webhooks.md "Secrets"). */
  encryptionKey: string | undefined;
  /** Worker var ALLOW_PRIVATE_TARGETS = "true": local development and tests may use private receivers. */
  allowPrivate: boolean;
}

/** How long the secret before a rotation stays valid (and signed with): receivers switch within a day. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

function sealingKey(key: string | undefined): string {
  if (!isUsableKey(key)) {
    console.error(
      JSON.stringify({ where: 'webhooks', error: 'WEBHOOK_ENCRYPTION_KEY is not set (or shorter than 16 characters)' }),
    );
    throw new AppError('internal', 'webhooks are not configured on this server');
  }
  return key;
}

/** The URL if the service may call it, else 400 with the reason (the SSRF rule, src/sync/protocol/url-guard.ts). */
export function checkReceiverUrl(url: string, allowPrivate: boolean): string {
  const reason = refusedUrlReason(url, allowPrivate);
  if (reason) throw badRequest(`url: ${reason}`);
  return new URL(url).toString();
}

export function endpointOut(row: EndpointRow): z.infer<typeof EndpointOut> {
  return {
    endpointId: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt,
    previousSecretExpiresAt: row.previousSecretExpiresAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** One endpoint of the caller's company, else 404 (another company's endpoint does not exist). */
export async function findEndpoint(db: Database, companyId: string, endpointId: string): Promise<EndpointRow> {
  const row = await db.query.webhookEndpoints.findFirst({
    where: and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.companyId, companyId)),
  });
  if (!row) throw notFound('endpoint');
  return row;
}

/**
 * The secrets an endpoint's requests are signed with right now: the current one, and the one
 * before the last rotation while it is still within its overlap.
 */
export async function signingSecrets(
  encryptionKey: string | undefined,
  row: EndpointRow,
  now: Date,
): Promise<string[]> {
  const key = sealingKey(encryptionKey);
  const secrets = [await openSecret(key, row.id, row.secretSealed)];
  if (row.previousSecretSealed && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now.toISOString())
    secrets.push(await openSecret(key, row.id, row.previousSecretSealed));
  return secrets;
}

/** A sealed signing secret opened; a plain Error when it does not open (the caller logs it, users see no detail). */
async function openSecret(key: string, endpointId: string, sealed: string): Promise<string> {
  const opened = await unseal(key, endpointId, sealed);
  if (typeof opened === 'string') throw new Error(`webhook signing secret ${opened}`);
  return opened.plaintext;
}

/** AddEndpoint (admin): a receiver URL, checked against SSRF, with a new secret shown once. */
export async function addEndpoint(
  deps: EndpointDeps,
  caller: Caller,
  input: z.infer<typeof AddEndpointDto>,
): Promise<z.infer<typeof EndpointWithSecretOut>> {
  assertAdmin(caller);
  const url = checkReceiverUrl(input.url, deps.allowPrivate);
  const key = sealingKey(deps.encryptionKey);
  const [{ n } = { n: 0 }] = await deps.db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.companyId, caller.companyId));
  if (n >= MAX_ENDPOINTS) throw conflict(`a company has at most ${MAX_ENDPOINTS} webhook endpoints`);
  const id = newId();
  const secret = newSigningSecret();
  const [row] = await deps.db
    .insert(webhookEndpoints)
    .values({
      id,
      companyId: caller.companyId,
      url,
      description: input.description ?? '',
      eventTypes: [...new Set(input.eventTypes ?? [])],
      secretSealed: await seal(key, id, secret),
      createdBy: caller.userId,
    })
    .returning();
  await position(deps.db, caller.companyId);
  return { ...endpointOut(row!), secret };
}

/** GetEndpoints (admin): the company's endpoints, oldest first (at most MAX_ENDPOINTS). */
export async function listEndpoints(db: Database, caller: Caller): Promise<{ items: z.infer<typeof EndpointOut>[] }> {
  assertAdmin(caller);
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.companyId, caller.companyId))
    .orderBy(asc(webhookEndpoints.id));
  return { items: rows.map(endpointOut) };
}

/** UpdateEndpoint (admin): URL, description, events, enabled. Enabling clears the disable notice. */
export async function updateEndpoint(
  deps: EndpointDeps,
  caller: Caller,
  input: z.infer<typeof UpdateEndpointDto>,
): Promise<z.infer<typeof EndpointOut>> {
  assertAdmin(caller);
  const current = await findEndpoint(deps.db, caller.companyId, input.endpointId);
  const url = input.url === undefined ? undefined : checkReceiverUrl(input.url, deps.allowPrivate);
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({
      ...(url !== undefined ? { url } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.eventTypes !== undefined ? { eventTypes: [...new Set(input.eventTypes)] } : {}),
      ...(input.enabled !== undefined && input.enabled !== current.enabled
        ? { enabled: input.enabled, disabledReason: null, disabledAt: input.enabled ? null : new Date().toISOString() }
        : {}),
      updatedAt: new Date().toISOString(),
    })
    .where(and(eq(webhookEndpoints.id, current.id), eq(webhookEndpoints.companyId, caller.companyId)))
    .returning();
  if (!row) throw notFound('endpoint');
  return endpointOut(row);
}

/** DeleteEndpoint (admin): the endpoint and its delivery log. */
export async function deleteEndpoint(db: Database, caller: Caller, endpointId: string) {
  assertAdmin(caller);
  await findEndpoint(db, caller.companyId, endpointId);
  await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.companyId, caller.companyId)));
  return { endpointId, deleted: true as const };
}

/**
 * RotateSecret (admin): a new secret, shown once; the current one stays valid (requests carry
 * both signatures) for ROTATION_OVERLAP_MS, so the receiver can switch without losing a message.
 */
export async function rotateSecret(
  deps: EndpointDeps,
  caller: Caller,
  endpointId: string,
  now = new Date(),
): Promise<z.infer<typeof EndpointWithSecretOut>> {
  assertAdmin(caller);
  const key = sealingKey(deps.encryptionKey);
  const current = await findEndpoint(deps.db, caller.companyId, endpointId);
  const secret = newSigningSecret();
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({
      secretSealed: await seal(key, current.id, secret),
      previousSecretSealed: current.secretSealed,
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      updatedAt: now.toISOString(),
    })
    // Conditional on the secret read: two rotations at once cannot both keep "the previous" one.
    .where(and(eq(webhookEndpoints.id, current.id), eq(webhookEndpoints.secretSealed, current.secretSealed)))
    .returning();
  if (!row) throw conflict('the secret was rotated at the same time; rotate again');
  return { ...endpointOut(row), secret };
}
