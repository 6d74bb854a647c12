import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { openApiDocument } from '../src/openapi/openapi-document';
import { contractTenant, send, type ContractTenant } from './helpers/contract-fixtures';
import { baseRequest, operationsOf, type Operation } from './helpers/contract-request';
import { tenantDigest } from './helpers/tenant-digest';

/**
 * Issue 32 part 4: the body of a raw-body operation is the file, whatever Content-Type the
 * client gave it. `Import/Upload` with `application/json` (how a user sends an ETIM xChange
 * file with curl) answered 500 ("ReadableStream is currently locked"): the operation guard read
 * the JSON body for a departmentId before the route streamed it. Every raw-body operation of the
 * OpenAPI document x every content type: never a 5xx, every refusal a JSON {error} with a
 * documented status that changed nothing; the import uploads keep every byte.
 */
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'text/xml; charset=utf-8',
  'application/xml',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'image/png',
  'application/zip',
  'nonsense',
  '',
];

const FILE = new TextEncoder().encode('{"Header":{"Format":"ETIM xChange"},"Supplier":[]}');
const rawOperations = operationsOf(await openApiDocument(createApp(), 'https://pim.test/api')).filter(
  (op) => op.rawBody,
);

let tenant: ContractTenant;
beforeAll(async () => {
  tenant = await contractTenant();
});

async function uploadAs(op: Operation, contentType: string) {
  const { query } = baseRequest(op, tenant.ids);
  return send(op, tenant, { raw: FILE, query, headers: contentType ? { 'Content-Type': contentType } : {} });
}

describe('raw-body operations take any content type as a file', () => {
  it('the document names the raw-body operations', () => {
    expect(rawOperations.map((op) => op.name).sort()).toEqual(
      expect.arrayContaining(['Import/Upload', 'Import/UploadPart', 'Media/Upload']),
    );
  });

  for (const op of rawOperations) {
    it(`${op.name}: no content type answers 5xx; a refusal is a documented JSON error that changes nothing`, async () => {
      for (const contentType of CONTENT_TYPES) {
        const before = await tenantDigest([tenant.companyId]);
        const answer = await uploadAs(op, contentType);
        expect(answer.status, `${op.name} with "${contentType}"`).toBeLessThan(500);
        if (answer.status >= 400) {
          expect(op.statuses, `${op.name} "${contentType}" -> ${answer.status}`).toContain(String(answer.status));
          expect(typeof answer.json?.error, `${op.name} "${contentType}"`).toBe('string');
          expect(await tenantDigest([tenant.companyId])).toBe(before);
        }
      }
    });
  }

  it('Import/Upload keeps the file whatever its content type says, byte for byte', async () => {
    const op = rawOperations.find((o) => o.name === 'Import/Upload')!;
    for (const contentType of CONTENT_TYPES) {
      const answer = await uploadAs(op, contentType);
      expect(answer.status, `Import/Upload with "${contentType}"`).toBe(200);
      expect(answer.json).toMatchObject({ size: FILE.byteLength, state: 'complete' });
      const listed = await env.FILES.get(`imports/${tenant.companyId}/files/${answer.json.fileId}`);
      expect(new Uint8Array(await listed!.arrayBuffer())).toEqual(FILE);
    }
  });
});
