import { Validator, type Schema } from '@cfworker/json-schema';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { setValue } from '../src/catalog/values';
import { updateProduct } from '../src/catalog/products';
import { openApiDocument } from '../src/openapi/openapi-document';
import { addConnection } from '../src/sync/connections';
import { sendTestEvent } from '../src/webhooks/deliveries';
import { addEndpoint } from '../src/webhooks/endpoints';
import { heldQueue } from './helpers/webhooks';
import { contractTenant, send, type ContractTenant } from './helpers/contract-fixtures';
import { setChannelReview } from '../src/completeness/review-rule';
import { approveProducts, submitForReview } from '../src/completeness/review-states';
import { loadRelease, proficlassFiles } from './helpers/release-fixtures';
import { etimIxfFile } from './helpers/release-ixf-fixture';
import { baseRequest, operationsOf, type Operation } from './helpers/contract-request';
import { asActor, db, makeAttribute, makeCompany, makeProduct, makeUser } from './helpers/factories';
import { insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';
import { SUPPLIER_2005 } from './fixtures/supplier-2005';
import { setPrices } from '../src/catalog/prices/prices';

/**
 * The document's success bodies are what the routes send (docs/web.md "The API client"): the
 * web client's types are generated from them, so a field declared but not sent, sent but not
 * declared, or of another type, would be a lie the compiler believes. Every JSON read of the
 * document is called with a tenant that has one of everything, and its answer validated
 * against the declared 200 schema, closed (no undeclared fields). A new read is covered the
 * day it is documented.
 */
const doc: any = await openApiDocument(createApp(), 'https://pim.test/api');
const successSchema = (op: Operation) => doc.paths[op.path][op.method.toLowerCase()].responses['200'].content;
const READS = operationsOf(doc).filter(
  (op) => op.method === 'GET' && op.security !== 'none' && successSchema(op)?.['application/json'],
);

/** Closes every object schema that lists its properties: a field the route sends must be declared. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, closed(v)]));
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

function validate(op: Operation, body: unknown) {
  const schema = successSchema(op)['application/json'].schema;
  const root = { ...(closed(schema) as object), components: closed(doc.components) } as Schema;
  return new Validator(root, '2020-12', false).validate(body).errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** Query values that make a read show more than its required parameters do. */
const MORE: Record<string, (attributeCode: string) => Record<string, string>> = {
  'Catalog/GetProducts': (code) => ({ attributes: code }),
  'ai/GetProducts': (code) => ({ attributes: code }),
  // The fixture's category (makeCategory names it "Category <id>").
  'Catalog/SearchCategories': () => ({ q: 'Category' }),
  // The reference class the fixture product is classified as (ETIM EC000042, MCB).
  'Classification/SearchClasses': () => ({ group: 'ETIM', q: 'EC000042' }),
  'Classification/GetClassFeatures': () => ({ group: 'ETIM', classCode: 'EC000042' }),
  // A finished dry run of a supplier file: its facts and report groups with rows (beforeAll).
  'Import/GetImport': () => ({ jobId: a.ids.importJobId! }),
  // A small proficl@ss release loaded in beforeAll (shared reference data, like a real release).
  'Classification/SearchReleaseClasses': () => ({ release: RELEASE, q: 'Absperr' }),
  'Classification/GetReleaseClassFeatures': () => ({ release: RELEASE, classCode: 'EAB006c006' }),
  'ai/SearchReleaseClasses': () => ({ release: RELEASE, q: 'Absperr' }),
  'ai/GetReleaseClassFeatures': () => ({ release: RELEASE, classCode: 'EAB006c006' }),
  // An ETIM IXF release (the format with class groups) loaded in beforeAll.
  'Classification/GetReleaseGroups': () => ({ release: GROUPED_RELEASE }),
  'ai/GetReleaseGroups': () => ({ release: GROUPED_RELEASE }),
  // The variant's typed price (beforeAll).
  'Catalog/GetCodesInUse': () => ({ list: 'priceTypes' }),
};

/** Lists the fixture tenant has nothing for (a sync run needs a connector to talk to). */
// GetMemberChanges: the contract tenant's members keep the role they were made with (permission-matrix.test.ts records changes).
// GetInvitations: the contract tenant invites nobody (team-members.test.ts does, in its own companies).
const EMPTY = new Set(['Sync/GetRuns', 'Account/GetMemberChanges', 'Account/GetInvitations']);

let a: ContractTenant;
const RELEASE = `PROFICLASS-r${crypto.randomUUID().slice(0, 8)}`;
const GROUPED_RELEASE = `ETIM-r${crypto.randomUUID().slice(0, 8)}`;
let attributeCode: string;
beforeAll(async () => {
  a = await contractTenant();
  const tenant = { companyId: a.companyId, departmentId: a.ids.departmentId! };
  const attribute = await makeAttribute(tenant, { type: 'number', unit: 'VLT' });
  attributeCode = attribute.code;
  const [productId, catalogId, categoryId, departmentId] = [
    a.ids.productId!,
    a.ids.catalogId!,
    a.ids.categoryId!,
    tenant.departmentId,
  ];
  await setValue(db(), asActor(tenant), { departmentId, elementId: productId, field: attribute.code, value: '230' });
  await updateProduct(db(), asActor(tenant), { departmentId, catalogId, productId, categoryIds: [categoryId] });
  const variant = await makeProduct(tenant, catalogId, { parentId: productId, name: 'Variant' });
  await setValue(db(), asActor(tenant), { departmentId, elementId: variant.productId, field: 'price', value: '9.5' });
  // A typed price of the catalog, for GetCodesInUse (priceTypes).
  const prices = [{ type: 'net_customer', amount: '9.5', currency: 'EUR' }];
  await setPrices(db(), asActor(tenant), { departmentId, productId: variant.productId, prices });
  const caller = { ...asActor(tenant), userId: a.ids.userId!, role: 'admin' as const, surface: 'web' as const };
  const connection = await addConnection(db(), caller as never, env.SYNC_ENCRYPTION_KEY, {
    departmentId,
    catalogId,
    name: 'Shop',
    connectorUrl: 'https://shop.responses.example/connector',
    keyId: 'responses-key',
    secret: 'responses-secret-0123456789',
    options: { missing: 'deactivate', maxDeactivationPercent: 10, schedule: 'daily', defaultTaxCode: 'DE19' },
  } as never);
  a.ids.connectionId = (connection as { connectionId: string }).connectionId;
  // Review on for the fixture channel: the product approved, then changed, so the inbox shows a change.
  const review = { channelId: a.ids.channelId!, productIds: [productId] };
  await setChannelReview(db(), caller, { channelId: review.channelId, enabled: true, rule: { kind: 'any' } });
  await submitForReview(db(), caller, review);
  await approveProducts(db(), caller, review);
  await setValue(db(), asActor(tenant), { departmentId, elementId: productId, field: 'name', value: 'In review' });
  const endpoint = await addEndpoint(
    { db: db(), encryptionKey: env.WEBHOOK_ENCRYPTION_KEY, allowPrivate: false },
    caller as never,
    { url: 'https://hooks.responses.example/pim' },
  );
  a.ids.endpointId = endpoint.endpointId;
  await sendTestEvent({ db: db(), queue: heldQueue().queue }, caller as never, endpoint.endpointId);
  const importer = { ...tenant, userId: a.ids.userId! };
  const fileId = await putImportFile(importer, SUPPLIER_2005);
  a.ids.importJobId = await insertImportJob(importer, { catalogId, fileId, dryRun: true });
  await runImportToEnd(a.ids.importJobId);
  const releaseAdmin = await makeUser(await makeCompany(), { role: 'admin' });
  const [system, version] = RELEASE.split('-') as [string, string];
  await loadRelease(releaseAdmin, { system, version, files: proficlassFiles() });
  const grouped = GROUPED_RELEASE.split('-')[1]!;
  await loadRelease(releaseAdmin, { system: 'ETIM', version: grouped, format: 'ETIM_XML', files: etimIxfFile() });
}, 60_000);

describe('every JSON read answers what the OpenAPI document declares', () => {
  it('covers the reads of the web app', () => {
    const names = READS.map((op) => op.name);
    for (const name of ['Account/Me', 'Catalog/GetProduct', 'Catalog/GetCategories', 'Sync/GetConnections'])
      expect(names).toContain(name);
  });

  it.each(READS.map((op) => [op.name, op] as const))('%s', async (_name, op) => {
    const base = baseRequest(op, a.ids);
    const res = await send(op, a, { query: { ...base.query, ...MORE[op.name]?.(attributeCode) } });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(validate(op, res.json)).toEqual([]);
    // Lists must hold something, or only their envelope was checked.
    if (Array.isArray(res.json.items) && !EMPTY.has(op.name)) expect(res.json.items.length, op.name).toBeGreaterThan(0);
  });

  it('notices a field the route sends but the document does not declare', () => {
    const op = READS.find((o) => o.name === 'Catalog/GetCategories')!;
    const item = { categoryId: 'c', catalogId: 'k', parentId: null, name: 'n', description: null, sortOrder: 0 };
    const counts = { productCount: 1, subtreeProductCount: 1 };
    expect(validate(op, { items: [{ ...item, ...counts }] })).toEqual([]);
    expect(validate(op, { items: [{ ...item, ...counts, hasChildren: true }] }).join()).toMatch(/hasChildren/);
    expect(validate(op, { items: [{ ...item, subtreeProductCount: 1 }] }).join()).toMatch(/productCount/);
  });
});
