import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { OPERATOR_ONLY } from '../src/accounts/operator-only';
import { AI_SWITCH_OFF } from '../src/classification/ai-switch';
import { LARGE_JSON_PATHS, MAX_LARGE_JSON_BYTES } from '../src/http/middleware';
import { openApiDocument } from '../src/openapi/openapi-document';
import { contractTenant, send, type ContractTenant, type Sent } from './helpers/contract-fixtures';
import { baseRequest, concrete, idKeyOf, operationsOf, wrongType, type Operation } from './helpers/contract-request';
import { tenantDigest } from './helpers/tenant-digest';

/**
 * The contract suite (docs/reliability.md): for EVERY operation of the OpenAPI document, the
 * failures every operation owes its callers, each followed by proof that nothing changed in
 * either company. A new operation is covered the moment it is documented.
 */
const OPERATIONS = operationsOf(await openApiDocument(createApp(), 'https://pim.test/api'));

let a: ContractTenant;
let b: ContractTenant;
beforeAll(async () => {
  a = await contractTenant();
  b = await contractTenant();
}, 60_000);

function expectError(op: Operation, res: Sent, status: number, label: string) {
  expect({ op: op.name, label, status: res.status }).toEqual({ op: op.name, label, status });
  expect(res.json, `${op.name} ${label}`).toMatchObject({ error: expect.any(String) });
  expect(op.statuses, `${op.name} ${label}: ${status} documented`).toContain(String(status));
}

describe('the contract of every operation', () => {
  it('covers the operations of the OpenAPI document', () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(45);
  });

  it.each(OPERATIONS.map((op) => [op.name, op] as const))('%s', async (_name, op) => {
    const before = await tenantDigest([a.companyId, b.companyId]);
    const unchanged = async (label: string) =>
      expect(await tenantDigest([a.companyId, b.companyId]), `${op.name} ${label} changed data`).toBe(before);
    const base = baseRequest(op, a.ids);
    const jsonBody = op.body !== undefined;

    if (op.security !== 'none' && !op.credentialOptional) {
      expectError(op, await send(op, null, base), 401, 'no credential');
      await unchanged('no credential');
    }
    // Cookie writes, and Login, which opens a cookie session (login CSRF).
    if (op.method !== 'GET' && (op.security === 'cookie' || op.name === 'Account/Login')) {
      expectError(
        op,
        await send(op, a, { ...base, headers: { Origin: 'https://evil.example' } }),
        403,
        'foreign Origin',
      );
      await unchanged('foreign Origin');
    }
    if (jsonBody) {
      expectError(
        op,
        await send(op, a, { ...base, raw: JSON.stringify(base.body), headers: { 'Content-Type': 'text/plain' } }),
        415,
        'wrong content type',
      );
      const malformed = await send(op, a, { ...base, raw: '{"name": ' });
      expectError(op, malformed, 400, 'malformed JSON');
      expect(malformed.json.code).toBe('bad_request');
      const limit = LARGE_JSON_PATHS.includes(`/api/${op.name}`) ? MAX_LARGE_JSON_BYTES : 1024 * 1024;
      expectError(
        op,
        await send(op, a, { ...base, raw: JSON.stringify({ ...base.body, pad: 'x'.repeat(limit) }) }),
        413,
        'oversize',
      );
      await unchanged('content type, malformed, oversize');
    }

    for (const field of op.body?.required ?? []) {
      const { [field]: _, ...rest } = base.body!;
      const res = await send(op, a, { ...base, body: rest });
      expectError(op, res, 400, `missing ${field}`);
      expect(res.json.error).toContain(`${field} is required`);
    }
    for (const field of op.requiredQuery) {
      const { [field]: _, ...rest } = base.query;
      const res = await send(op, a, { ...base, query: rest });
      expectError(op, res, 400, `missing ${field}`);
      expect(res.json.error).toContain(`${field} is required`);
    }
    await unchanged('missing fields');

    for (const [field, schema] of Object.entries<any>(op.body?.properties ?? {})) {
      const value = wrongType(schema);
      if (value === undefined) continue;
      const res = await send(op, a, { ...base, body: { ...base.body, [field]: value } });
      expectError(op, res, 400, `wrong type of ${field}`);
      expect(res.json.error).toContain(field);
    }
    for (const [field, schema] of Object.entries(op.query)) {
      const s = concrete(schema);
      if (s.format !== 'uuid' && s.type !== 'integer') continue;
      const res = await send(op, a, { ...base, query: { ...base.query, [field]: 'not-valid!' } });
      expectError(op, res, 400, `wrong type of ${field}`);
      expect(res.json.error).toContain(field);
    }
    await unchanged('wrong types');

    const idFields = [
      ...Object.entries(base.body ?? {}).map(([field, value]) => ({ field, value, where: 'body' as const })),
      ...Object.entries(base.query).map(([field, value]) => ({ field, value, where: 'query' as const })),
    ].filter(({ field, value }) => idKeyOf(field) && value === a.ids[idKeyOf(field)!] && b.ids[idKeyOf(field)!]);
    for (const { field, where } of idFields) {
      const foreign = b.ids[idKeyOf(field)!]!;
      const request =
        where === 'body'
          ? { ...base, body: { ...base.body, [field]: foreign } }
          : { ...base, query: { ...base.query, [field]: foreign } };
      const res = await send(op, a, request);
      // A department of another company is refused as such (403); any other id is unknown (404).
      expectError(op, res, field === 'departmentId' ? 403 : 404, `${field} of another company`);
    }
    await unchanged('ids of another company');
  });
});

/**
 * "Authorization before validation" (STYLE.md): a caller the operation documents as refused
 * (its 403 reasons) gets 403 whatever the body, here a body with nothing right in it; only a
 * permitted caller learns what is wrong with a body.
 */
describe('a caller who may not call an operation is refused before the body is read', () => {
  const refusing = (reason: string) => OPERATIONS.filter((op) => op.refusals.includes(reason));
  const worthless = (op: Operation) => (op.body ? { body: { unknownField: true } } : { query: {} });

  it('documents the permissions of admin and operator operations, the AI switch and departments', () => {
    expect(refusing('not a company admin').map((op) => op.name)).toContain('Sync/AddConnection');
    expect(refusing('not the service operator').map((op) => op.name)).toEqual(['Classification/StartReleaseLoad']);
    expect(
      refusing('"AI may edit classifications" off')
        .map((op) => op.name)
        .sort(),
    ).toEqual(['ai/CreateClassification', 'ai/DeleteClassification', 'ai/UpdateClassification']);
    expect(refusing('a department of another company').length).toBeGreaterThanOrEqual(20);
  });

  it.each(refusing('not a company admin').map((op) => [op.name, op] as const))('%s: an editor', async (_, op) => {
    const before = await tenantDigest([a.companyId]);
    const res = await send(op, { ...a, cookie: a.editorCookie }, worthless(op));
    expectError(op, res, 403, 'editor');
    expect(res.json.error).toBe('only a company admin may do this');
    expect(await tenantDigest([a.companyId])).toBe(before);
  });

  it.each(refusing('not the service operator').map((op) => [op.name, op] as const))(
    '%s: a company admin and an editor who are not the operator',
    async (_, op) => {
      const before = await tenantDigest([a.companyId]);
      for (const cookie of [a.adminCookie, a.editorCookie]) {
        const res = await send(op, { ...a, cookie }, worthless(op));
        expectError(op, res, 403, 'not the operator');
        expect(res.json.error).toBe(OPERATOR_ONLY);
      }
      expect(await tenantDigest([a.companyId])).toBe(before);
    },
  );

  it.each(refusing('"AI may edit classifications" off').map((op) => [op.name, op] as const))(
    '%s: an agent without the switch',
    async (_, op) => {
      const before = await tenantDigest([a.companyId]);
      const res = await send(op, { ...a, token: a.noAiToken }, worthless(op));
      expectError(op, res, 403, 'switch off');
      expect(res.json.error).toBe(AI_SWITCH_OFF);
      expect(await tenantDigest([a.companyId])).toBe(before);
    },
  );

  it.each(refusing('a department of another company').map((op) => [op.name, op] as const))(
    '%s: a department of another company',
    async (_, op) => {
      const before = await tenantDigest([a.companyId, b.companyId]);
      const departmentId = b.ids.departmentId!;
      const inQuery = op.query.departmentId !== undefined;
      const res = await send(
        op,
        a,
        inQuery ? { query: { departmentId } } : { body: { departmentId, unknownField: true } },
      );
      expectError(op, res, 403, 'foreign department');
      expect(res.json.error).toBe('departmentId does not name a department of your company');
      expect(await tenantDigest([a.companyId, b.companyId])).toBe(before);
    },
  );
});
