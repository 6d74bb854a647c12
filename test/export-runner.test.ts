import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { cancelJob } from '../src/jobs/jobs';
import { runExportSlice, type SliceOutcome } from '../src/exports/run-export';
import { addTemplate, deleteTemplate } from '../src/exports/templates';
import { db, makeCatalog, makeCategory, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import {
  bulkCatalog,
  crashingFiles,
  deliver,
  insertExportJob,
  jobRow,
  listKeys,
  supplierPids,
  testDeps,
} from './helpers/export-fixtures';

async function resultText(jobId: string): Promise<string> {
  const row = await jobRow(jobId);
  const object = await env.FILES.get(row.resultKey!);
  return object!.text();
}

/** Runs slices until the job is finished or stopped; returns each slice's outcome and the progress seen after it. */
async function runToEnd(jobId: string, deps = testDeps()) {
  const outcomes: SliceOutcome[] = [];
  const progress: number[] = [];
  for (let i = 0; i < 100; i++) {
    const outcome = await runExportSlice(deps, await jobRow(jobId));
    outcomes.push(outcome);
    progress.push((await jobRow(jobId)).progressDone);
    if (outcome !== 'continued') break;
  }
  return { outcomes, progress };
}

describe('a BMEcat export across many queue messages', () => {
  it('streams a catalog bigger than one multipart part: every product exactly once, in order, while progress moves', async () => {
    const session = await makeSession();
    const { catalog, expected } = await bulkCatalog(session.tenant, 2100, { descriptionLength: 2000 });
    const jobId = await insertExportJob(session.tenant, { catalogId: catalog.catalogId, exportType: 'BMEcat' });

    const { outcomes, progress } = await runToEnd(jobId);
    // One page per slice: header, groups, 24 product pages (90 masters each), 5 map pages (500 masters each), footer.
    expect(outcomes).toHaveLength(32);
    expect(outcomes.at(-1)).toBe('finished');
    expect(outcomes.slice(0, -1).every((o) => o === 'continued')).toBe(true);
    const productPhase = progress.slice(2, 26);
    // After the first page: the first 90 masters in keyset order with their variants.
    const masterPositions = expected.flatMap((sku, i) => (/-V\d$/.test(sku) ? [] : [i]));
    expect(productPhase[0]).toBe(masterPositions[90]);
    expect(productPhase.every((done, i) => i === 0 || done > productPhase[i - 1]!)).toBe(true);
    const job = await call('GET', `/api/Job/GetJob?jobId=${jobId}`, { cookie: session.cookie });
    expect(job.json).toMatchObject({
      state: 'succeeded',
      progress: { done: expected.length, total: expected.length },
      error: null,
      warnings: [],
    });

    const xml = await resultText(jobId);
    expect(job.json.result.size).toBe(new TextEncoder().encode(xml).byteLength);
    expect(job.json.result.size).toBeGreaterThan(5 * 1024 * 1024); // more than one R2 part
    expect(supplierPids(xml)).toEqual(expected);
    const mapped = [...xml.matchAll(/<PROD_ID>([^<]*)<\/PROD_ID>/g)].map((m) => m[1]);
    expect(mapped.sort()).toEqual([...expected].sort());
    expect(xml.endsWith('</T_NEW_CATALOG>\n</BMECAT>\n')).toBe(true);
    expect(await listKeys(`tmp/${jobId}/`)).toEqual([]);
    expect((await jobRow(jobId)).checkpoint).toBeNull();
  });

  it('resumes a slice that crashed before its checkpoint from the previous one, without duplicates or gaps', async () => {
    const session = await makeSession();
    const { catalog, expected } = await bulkCatalog(session.tenant, 200);
    const jobId = await insertExportJob(session.tenant, { catalogId: catalog.catalogId, exportType: 'BMEcat12' });
    expect(await runExportSlice(testDeps(), await jobRow(jobId))).toBe('continued');
    expect(await runExportSlice(testDeps(), await jobRow(jobId))).toBe('continued');
    const before = await jobRow(jobId);

    // The third slice writes a product page, then dies saving its carry: nothing of it is committed.
    await expect(runExportSlice(testDeps({ files: crashingFiles({ put: 1 }) }), await jobRow(jobId))).rejects.toThrow(
      'simulated crash',
    );
    const after = await jobRow(jobId);
    expect(after.checkpoint).toEqual(before.checkpoint);
    expect(after.progressDone).toBe(before.progressDone);

    // The retried message picks up at the same checkpoint; the last slice also survives a failed part upload on retry.
    await expect(
      runExportSlice(testDeps({ files: crashingFiles({ part: 1 }), sliceMs: 60_000 }), await jobRow(jobId)),
    ).rejects.toThrow('simulated crash');
    expect(await runExportSlice(testDeps({ sliceMs: 60_000 }), await jobRow(jobId))).toBe('finished');
    const xml = await resultText(jobId);
    expect(supplierPids(xml)).toEqual(expected);
    expect((await jobRow(jobId)).progressDone).toBe(expected.length);
    expect(await listKeys(`tmp/${jobId}/`)).toEqual([]);
  });

  it('retries an unexpected failure through the queue, then fails the job with a reference and no file', async () => {
    const session = await makeSession();
    const { catalog } = await bulkCatalog(session.tenant, 120);
    const jobId = await insertExportJob(session.tenant, { catalogId: catalog.catalogId, exportType: 'BMEcat' });
    const crashing = { FILES: crashingFiles({ part: 1 }), EXPORT_SLICE_MS: '60000' } as never;
    const first = await deliver(jobId, 1, crashing);
    expect(first.retryMessages).toEqual([expect.objectContaining({ msgId: `msg-${jobId}-1` })]);
    expect(first.explicitAcks).toEqual([]);
    expect((await jobRow(jobId)).state).toBe('running');

    const last = await deliver(jobId, 3, { FILES: crashingFiles({ part: 1 }), EXPORT_SLICE_MS: '60000' } as never);
    expect(last.explicitAcks).toEqual([`msg-${jobId}-3`]);
    const job = await call('GET', `/api/Job/GetJob?jobId=${jobId}`, { cookie: session.cookie });
    expect(job.json).toMatchObject({ state: 'failed', result: null });
    expect(job.json.error).toMatch(/^job failed after 3 attempts \(internal error, reference [0-9a-f-]{36}\)$/);
    expect(await listKeys(`exports/${session.companyId}/${jobId}/`)).toEqual([]);
    expect(await listKeys(`tmp/${jobId}/`)).toEqual([]);
  });
});

describe('cancellation of a running export', () => {
  it('stops at the next slice, aborts the upload and leaves no file', async () => {
    const session = await makeSession();
    const { catalog } = await bulkCatalog(session.tenant, 200);
    const jobId = await insertExportJob(session.tenant, { catalogId: catalog.catalogId, exportType: 'BMEcat-ETIM' });
    expect(await runExportSlice(testDeps(), await jobRow(jobId))).toBe('continued');
    expect(await runExportSlice(testDeps(), await jobRow(jobId))).toBe('continued');
    const checkpoint = (await jobRow(jobId)).checkpoint as { key: string; uploadId: string; carryKey: string };
    expect(await listKeys(`tmp/${jobId}/`)).toEqual([checkpoint.carryKey]);

    expect((await cancelJob(db(), session, jobId)).state).toBe('cancelled');
    expect(await runExportSlice(testDeps(), await jobRow(jobId))).toBe('stopped');
    const row = await jobRow(jobId);
    expect(row).toMatchObject({ state: 'cancelled', resultKey: null });
    expect(await listKeys(`exports/${session.companyId}/${jobId}/`)).toEqual([]);
    expect(await listKeys(`tmp/${jobId}/`)).toEqual([]);
    // The multipart upload is gone: completing it now is impossible.
    await expect(env.FILES.resumeMultipartUpload(checkpoint.key, checkpoint.uploadId).complete([])).rejects.toThrow();
  });
});

describe('an export that cannot be made', () => {
  it('fails at once with the reason and writes nothing, e.g. a template subset outside the catalog', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const elsewhere = await makeCategory(session, (await makeCatalog(session, { name: 'Other' })).catalogId);
    const template = await addTemplate(db(), session, {
      name: 'Subset',
      exportType: 'BMEcat',
      options: { categoryId: elsewhere.categoryId },
    });
    const jobId = await insertExportJob(session.tenant, {
      catalogId: catalog.catalogId,
      exportType: 'BMEcat',
      templateId: template.templateId,
    });
    const result = await deliver(jobId, 1);
    expect(result.explicitAcks).toEqual([`msg-${jobId}-1`]);
    expect(await jobRow(jobId)).toMatchObject({
      state: 'failed',
      error: "the template's categoryId is not a category of this catalog",
      checkpoint: null,
      resultKey: null,
      startedAt: null,
    });
    expect(await listKeys(`exports/${session.companyId}/${jobId}/`)).toEqual([]);
  });

  it('refuses an ETIM export without products, which the guideline cannot express', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const jobId = await insertExportJob(session.tenant, { catalogId: catalog.catalogId, exportType: 'BMEcat-ETIM' });
    await deliver(jobId, 1);
    expect(await jobRow(jobId)).toMatchObject({
      state: 'failed',
      error: 'the ETIM BMEcat guideline requires at least one PRODUCT, and this export selects none',
    });
    expect(await listKeys(`exports/${session.companyId}/${jobId}/`)).toEqual([]);
  });
});

describe('a template deleted around an export', () => {
  it('fails an export that has not started, and lets a running one finish with its plan', async () => {
    const session = await makeSession();
    const { catalog, expected } = await bulkCatalog(session.tenant, 100);
    const template = await addTemplate(db(), session, {
      name: 'nrp',
      exportType: 'BMEcat',
      options: { priceType: 'nrp' },
    });
    const waiting = await insertExportJob(session.tenant, {
      catalogId: catalog.catalogId,
      exportType: 'BMEcat',
      templateId: template.templateId,
    });
    const running = await insertExportJob(session.tenant, {
      catalogId: catalog.catalogId,
      exportType: 'BMEcat',
      templateId: template.templateId,
    });
    expect(await runExportSlice(testDeps(), await jobRow(running))).toBe('continued');

    await deleteTemplate(db(), session, template.templateId);
    await deliver(waiting, 1);
    expect(await jobRow(waiting)).toMatchObject({
      state: 'failed',
      error: 'export template no longer exists',
      resultKey: null,
    });
    const { outcomes } = await runToEnd(running);
    expect(outcomes.at(-1)).toBe('finished');
    const xml = await resultText(running);
    expect(supplierPids(xml)).toEqual(expected);
    expect(xml).toContain('<PRODUCT_PRICE price_type="nrp">');
  });
});
