/**
 * Classification releases reach every cell (docs/scaling.md section 5, "Reference data"): an
 * administrator of a cell-1 company loads a release; a company in cell-2 sees the same release
 * list, searches its classes, classifies a product against it, and has its kept codes verified
 * in its own cell. The load walks the cells slice by slice, says which cell in its progress,
 * and skips a cell that has the release loaded already.
 */
import { env, exports } from 'cloudflare:workers';
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addCatalog } from '../src/catalog/catalogs';
import { ReferenceCache } from '../src/catalog/upsert/resolve/reference-cache';
import { upsertRecords } from '../src/catalog/upsert/upsert-products';
import { openCellSession } from '../src/db/cells';
import { jobs } from '../src/db/schema';
import { handleJobBatch } from '../src/runners/queue-consumer';
import { releaseCellsOf } from '../src/releases/release-cells';
import { runReleaseLoadSlice } from '../src/releases/release-load';
import { startReleaseLoad } from '../src/releases/start-release-load';
import { cellD1, placeInCell } from './helpers/cells';
import { asActor, makeSession } from './helpers/factories';
import { call, ORIGIN } from './helpers/http';
import {
  operatorCaller,
  etimFiles,
  jobRow,
  proficlassFiles,
  releaseDeps,
  uploadRelease,
} from './helpers/release-fixtures';

/** One queue message for a job in `cell`, handled by the Worker's consumer (continuations held). */
async function deliverIn(cell: string, jobId: string) {
  const batch = createMessageBatch('pim-jobs', [
    { id: `msg-${jobId}-${crypto.randomUUID()}`, timestamp: new Date(), attempts: 1, body: { jobId, cell } },
  ]);
  await handleJobBatch(batch, { ...env, JOB_QUEUE: env.EXPORT_HOLD_QUEUE });
  return getQueueResult(batch, createExecutionContext());
}

async function upload(cookie: string, fileName: string, body: string | Uint8Array) {
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/api/Import/Upload?fileName=${encodeURIComponent(fileName)}`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'text/csv' },
      body,
    }),
  );
  return ((await res.json()) as { fileId: string }).fileId;
}

/** The service operator, a cell-1 company administrator, loads a release through REST and the queue consumer. */
async function loadThroughRest(
  system: string,
  version: string,
  files: Record<string, { content: string | Uint8Array; language?: string }>,
) {
  const admin = await makeSession({ role: 'admin', operator: true });
  const ids = [];
  for (const [name, file] of Object.entries(files))
    ids.push({
      fileId: await upload(admin.cookie, name, file.content),
      ...(file.language ? { language: file.language } : {}),
    });
  const started = await call('POST', '/api/Classification/StartReleaseLoad', {
    cookie: admin.cookie,
    headers: { Origin: ORIGIN },
    body: { system, version, files: ids },
  });
  expect(started.status, started.text).toBe(200);
  await deliverIn('cell-1', started.json.jobId);
  const job = await call('GET', `/api/Job/GetJob?jobId=${started.json.jobId}`, { cookie: admin.cookie });
  expect(job.json.state, job.text).toBe('succeeded');
  return { admin, started: started.json, job: job.json };
}

/** An administrator of a fresh company placed in cell-2, with a catalog and a product there. */
async function cell2Admin() {
  const admin = await makeSession({ role: 'admin' });
  await placeInCell(admin.companyId, 'cell-2');
  const db = openCellSession(env, 'cell-2').primary();
  const catalog = await addCatalog(db, asActor(admin.tenant), {
    departmentId: admin.departmentId,
    name: 'Cell-2 catalog',
  });
  return { admin, db, catalog };
}

const releaseRow = (d1: D1Database, release: string) =>
  d1
    .prepare(`SELECT id, status FROM classification_releases WHERE system || '-' || version = ? AND status = 'loaded'`)
    .bind(release)
    .first<{ id: number; status: string }>();

describe('a release load writes every cell', () => {
  it('a cell-2 company sees, searches and classifies against a release a cell-1 administrator loaded', async () => {
    const version = `c${crypto.randomUUID().slice(0, 8)}`;
    const release = `ETIM-${version}`;
    const { admin, started, job } = await loadThroughRest('ETIM', version, etimFiles());
    expect(job.summary).toMatchObject({ classes: 3, cells: 3 });

    // The same release, with the same id, loaded in each cell.
    for (const d1 of [env.DB, cellD1('cell-2'), cellD1('cell-3')])
      expect(await releaseRow(d1, release)).toEqual({ id: started.releaseId, status: 'loaded' });

    const other = await cell2Admin();
    const listed = (cookie: string) =>
      call('GET', '/api/Classification/GetReleases', { cookie }).then((r) =>
        r.json.items.find((i: { release: string }) => i.release === release),
      );
    const inCell2 = await listed(other.admin.cookie);
    expect(inCell2).toMatchObject({
      status: 'loaded',
      languages: ['en', 'de'],
      counts: { classes: 3, classFeatures: 4 },
    });
    const { loadedAt, createdAt, ...same } = inCell2;
    expect(await listed(admin.cookie)).toMatchObject(same);

    const search = await call('GET', `/api/Classification/SearchReleaseClasses?release=${release}&q=mcb`, {
      cookie: other.admin.cookie,
    });
    expect(search.json.items.map((c: { code: string }) => c.code)).toEqual(['EC000042']);

    const product = await call('POST', '/api/Catalog/AddProduct', {
      cookie: other.admin.cookie,
      body: { departmentId: other.admin.departmentId, catalogId: other.catalog.catalogId, sku: 'TIE-1', name: 'Tie' },
    });
    expect(product.status, product.text).toBe(200);
    const set = await call('POST', '/api/Classification/SetElementClassification', {
      cookie: other.admin.cookie,
      body: {
        departmentId: other.admin.departmentId,
        elementId: product.json.productId,
        classes: [{ group: 'ETIM', code: 'EC000905', release }],
        features: [{ group: 'ETIM', code: 'EF000008', value: '12 mm' }],
      },
    });
    expect(set.status, set.text).toBe(200);
    const read = await call('GET', `/api/Classification/GetElementClassification?elementId=${product.json.productId}`, {
      cookie: other.admin.cookie,
    });
    expect(read.json.classification.classes).toMatchObject([{ code: 'EC000905', release, name: 'Cable tie' }]);
    // A value the release refuses is refused in cell-2 as well: the release's rules are there.
    const refused = await call('POST', '/api/Classification/SetElementClassification', {
      cookie: other.admin.cookie,
      body: {
        departmentId: other.admin.departmentId,
        elementId: product.json.productId,
        classes: [{ group: 'ETIM', code: 'EC999999', release }],
      },
    });
    expect(refused.status, refused.text).toBe(400);
  });

  it('verifies the kept codes of a cell-2 company in cell-2 after the load', async () => {
    const version = `t${crypto.randomUUID().slice(0, 8)}`;
    const release = `PROFICLASS-${version}`;
    const other = await cell2Admin();
    const outcomes = await upsertRecords(
      {
        db: other.db,
        files: null,
        companyId: other.admin.companyId,
        actor: asActor(other.admin.tenant),
        catalogId: other.catalog.catalogId,
        mode: 'upsert',
        dryRun: false,
        cache: new ReferenceCache(other.db, other.admin.companyId),
        tolerant: true,
        catalogLanguage: other.catalog.language,
      },
      [
        {
          sku: 'GITTER',
          fields: { name: 'GITTER' },
          classification: {
            classes: [{ system: `PROFICLASS ${version}`, code: 'EAB006c006' }],
            features: [{ code: 'AAA031f001', value: '1200 mm' }],
          },
        },
      ],
    );
    expect(outcomes.map((o) => o.status)).toEqual(['created']);

    const files = Object.fromEntries(Object.entries(proficlassFiles()).map(([name, content]) => [name, { content }]));
    const { job } = await loadThroughRest('PROFICLASS', version, files);
    expect(job.summary).toMatchObject({ verifyJobs: 1, cells: 3 });

    // The verification job is in cell-2 (the company's cell), not in cell-1.
    const verify = await other.db.query.jobs.findFirst({ where: eq(jobs.companyId, other.admin.companyId) });
    expect(verify).toMatchObject({ kind: 'releaseVerify', state: 'queued', params: { release, automatic: true } });
    expect(await env.DB.prepare('SELECT 1 FROM jobs WHERE id = ?').bind(verify!.id).first()).toBeNull();
    await deliverIn('cell-2', verify!.id);
    const done = await other.db.query.jobs.findFirst({ where: eq(jobs.id, verify!.id) });
    expect(done).toMatchObject({ state: 'succeeded', summary: { checked: 1, classesVerified: 1 } });
    const read = await call('GET', `/api/Classification/GetElementClassification?elementId=${outcomes[0]!.productId}`, {
      cookie: other.admin.cookie,
    });
    expect(read.status, read.text).toBe(200);
    expect(read.json.classification.classes).toMatchObject([{ code: 'EAB006c006', release }]);
  });

  it('goes cell after cell (progress says which), resumes where it was, and skips a cell that has the release', async () => {
    const version = `s${crypto.randomUUID().slice(0, 8)}`;
    const release = `ETIM-${version}`;
    // cell-3 has the release already (loaded there before loads walked every cell).
    await cellD1('cell-3')
      .prepare(
        `INSERT INTO classification_releases (id, system, version, status, format) VALUES (?, 'ETIM', ?, 'loaded', 'ETIM_CSV')`,
      )
      .bind(900_000 + Math.floor(Math.random() * 99_999), version)
      .run();
    const before = await releaseRow(cellD1('cell-3'), release);

    const admin = await makeSession({ role: 'admin' });
    const deps = releaseDeps({ db: openCellSession(env, 'cell-1').primary(), cells: releaseCellsOf(env), sliceMs: 0 });
    const started = await startReleaseLoad(deps, operatorCaller(admin), {
      system: 'ETIM',
      version,
      files: await uploadRelease(admin, etimFiles()),
      replace: false,
    });
    const seen: { cell: string; done: number; total: number }[] = [];
    for (let i = 0; i < 200; i++) {
      const job = await jobRow(started.jobId!);
      if (job.state !== 'queued' && job.state !== 'running') break;
      // Each slice is a new message reading the job row, as after a crash.
      await runReleaseLoadSlice(deps, job);
      const after = await jobRow(started.jobId!);
      const cp = after.checkpoint as { cells?: string[]; cellIndex?: number } | null;
      seen.push({
        cell: cp?.cells?.[cp.cellIndex ?? 0] ?? 'cell-1',
        done: after.progressDone,
        total: after.progressTotal,
      });
    }
    const job = await jobRow(started.jobId!);
    expect(job.state, job.error ?? '').toBe('succeeded');
    expect(new Set(seen.map((s) => s.cell))).toEqual(new Set(['cell-1', 'cell-2']));
    // Progress runs over every cell: its files and its finalize step, three cells.
    const perCell = Object.keys(etimFiles()).length + 1;
    expect(seen.map((s) => s.total)).toEqual(seen.map(() => 3 * perCell));
    expect(seen.map((s) => s.done)).toEqual([...seen.map((s) => s.done)].sort((a, b) => a - b));
    expect(job.warnings).toContain('cell-3 had this release loaded already: left as it was');
    expect(job.summary).toMatchObject({ cells: 3, releaseId: started.releaseId });
    expect(await releaseRow(env.DB, release)).toEqual({ id: started.releaseId, status: 'loaded' });
    expect(await releaseRow(cellD1('cell-2'), release)).toEqual({ id: started.releaseId, status: 'loaded' });
    expect(await releaseRow(cellD1('cell-3'), release)).toEqual(before);
    const classes = await cellD1('cell-2')
      .prepare('SELECT count(*) AS n FROM release_classes WHERE release_id = ?')
      .bind(started.releaseId)
      .first<{ n: number }>();
    expect(classes!.n).toBe(3);
  });
});
