import { exports } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { channelRules, channels, jobs } from '../../src/db/schema';
import { newId } from '../../src/kernel/ids';
import { addTemplate } from '../../src/exports/templates';
import { insertExportJob } from './export-fixtures';
import {
  asActor,
  classifyAsMcb,
  db,
  makeAttribute,
  makeCatalog,
  makeCategory,
  makeCompany,
  makeProduct,
  makeUser,
} from './factories';
import { loginAs } from './http';
import { tokensFor } from '../oauth-helpers';
import type { Ids, Operation } from './contract-request';

export const BASE = 'https://pim.test';

/**
 * One company with one of everything an operation can name: an admin who is also the service
 * operator (web session `cookie`, so operator-only operations are checked as far as their
 * validation), an admin who is not the operator (`adminCookie`), an editor
 * with the AI switch (web session and agent token), an editor without it (agent token), a catalog with a category and a classified product
 * with media, an attribute, a template and a finished job.
 */
export async function contractTenant() {
  const company = await makeCompany();
  const admin = await makeUser(company, { role: 'admin', operator: true });
  const plainAdmin = await makeUser(company, { role: 'admin' });
  const editor = await makeUser(company, { aiSwitch: true });
  const cookie = await loginAs(admin.email);
  const editorCookie = await loginAs(editor.email);
  const adminCookie = await loginAs(plainAdmin.email);
  const token = await agentToken(editorCookie);
  // The demo's noai@demo.test: an editor whose switch "AI may edit classifications" is off.
  const noAi = await makeUser(company, { aiSwitch: false });
  const noAiToken = await agentToken(await loginAs(noAi.email));
  const catalog = await makeCatalog(company);
  const category = await makeCategory(company, catalog.catalogId);
  // A channel requiring a GTIN the product lacks, stored before the product so its write scores it
  // (no recompute job runs while the suite compares tenants).
  const channelId = newId();
  await db()
    .insert(channels)
    .values({
      channelId,
      companyId: company.companyId,
      name: 'Contract',
      languages: ['deu'],
      requirements: [{ kind: 'field', field: 'gtin' }],
    });
  const [channel] = await db().select().from(channels).where(eq(channels.channelId, channelId));
  await db().insert(channelRules).values({
    companyId: company.companyId,
    channelKey: channel!.id,
    lang: 'deu',
    position: 0,
    kind: 'field',
    target: 'gtin',
    label: 'gtin',
  });
  const product = await makeProduct(company, catalog.catalogId);
  const attribute = await makeAttribute(company, { type: 'text' });
  const template = await addTemplate(db(), asActor(company), {
    name: `Template ${crypto.randomUUID().slice(0, 6)}`,
    exportType: 'CSV',
  } as never);
  const jobId = await insertExportJob(
    { ...company, userId: admin.userId },
    { catalogId: catalog.catalogId, exportType: 'CSV' },
  );
  // Finished: a poll of it never triggers the recovery sweep while the suite runs.
  await db()
    .update(jobs)
    .set({ state: 'failed', error: 'fixture', finishedAt: new Date().toISOString() })
    .where(eq(jobs.id, jobId));
  const link = await classifyAsMcb(company, product.productId);
  const params = new URLSearchParams({
    departmentId: company.departmentId,
    elementId: product.productId,
    fileName: 'fixture.png',
    purpose: 'detail',
  });
  const upload = await exports.default.fetch(
    new Request(`${BASE}/api/Media/Upload?${params}`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'image/png' },
      body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    }),
  );
  const { mediaId } = (await upload.json()) as { mediaId: string };
  const ids: Ids = {
    departmentId: company.departmentId,
    catalogId: catalog.catalogId,
    categoryId: category.categoryId,
    productId: product.productId,
    attributeId: attribute.attributeId,
    templateId: template.templateId,
    jobId,
    mediaId,
    linkId: (link as { linkId: string }).linkId,
    userId: editor.userId,
    channelId,
  };
  return { companyId: company.companyId, cookie, token, editorCookie, adminCookie, noAiToken, ids };
}

export type ContractTenant = Awaited<ReturnType<typeof contractTenant>>;

/**
 * An agent's access token that `send` renews once it is older than RENEW_AFTER_MS: the tokens
 * live 5 minutes (src/oauth/config.ts), and a suite over every operation can outlast them on a
 * loaded machine (401 instead of the status under test).
 */
interface AgentToken {
  session: string;
  value: string;
  issuedAt: number;
}

const RENEW_AFTER_MS = 3 * 60 * 1000;

async function agentToken(session: string): Promise<AgentToken> {
  const { access_token } = await tokensFor({ session });
  return { session, value: access_token, issuedAt: Date.now() };
}

async function currentValue(token: AgentToken): Promise<string> {
  if (Date.now() - token.issuedAt > RENEW_AFTER_MS) Object.assign(token, await agentToken(token.session));
  return token.value;
}

/** A fresh client IP per request: the per-IP limits of public operations must not answer instead. */
const randomIp = () => `10.${(Math.random() * 250) | 0}.${(Math.random() * 250) | 0}.${(Math.random() * 250) | 0}`;

export interface Sent {
  status: number;
  json: any;
  contentType: string;
}

/** Sends one request to an operation as `tenant` (or anonymously); `raw` replaces the JSON body. */
export async function send(
  op: Operation,
  tenant: ContractTenant | null,
  request: {
    body?: unknown;
    query?: Record<string, string>;
    raw?: BodyInit;
    headers?: Record<string, string>;
    rawQuery?: string;
  },
): Promise<Sent> {
  const headers: Record<string, string> = { 'CF-Connecting-IP': randomIp() };
  if (tenant && op.security === 'bearer') headers.Authorization = `Bearer ${await currentValue(tenant.token)}`;
  else if (tenant) headers.Cookie = tenant.cookie;
  let body: BodyInit | undefined = request.raw;
  if (body === undefined && op.rawBody) {
    body = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    headers['Content-Type'] = 'image/png';
  } else if (body === undefined && request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['Content-Type'] = 'application/json';
  } else if (body !== undefined) headers['Content-Type'] = 'application/json';
  Object.assign(headers, request.headers);
  const search = request.rawQuery ?? new URLSearchParams(request.query ?? {}).toString();
  const response = await exports.default.fetch(
    new Request(`${BASE}${op.path}${search ? `?${search}` : ''}`, { method: op.method, headers, body }),
  );
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, contentType: response.headers.get('Content-Type') ?? '' };
}
