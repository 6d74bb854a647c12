import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { upsertRecords } from '../src/catalog/upsert/upsert-products';
import { ReferenceCache } from '../src/catalog/upsert/resolve/reference-cache';
import { classificationLinkFeatures, classificationLinks, historyVersions, jobs } from '../src/db/schema';
import { runVerifySlice, startVerifyCodes } from '../src/releases/verify-job';
import { failLinkPages } from '../src/releases/link-pages';
import { asActor, db, makeCatalog, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { adminCaller, loadRelease, proficlassFiles } from './helpers/release-fixtures';
import { etimIxfFile } from './helpers/release-ixf-fixture';

const deps = (sliceMs = 60_000) => ({ db: db(), queue: env.EXPORT_HOLD_QUEUE, sliceMs });
const jobRow = async (id: string) => (await db().query.jobs.findFirst({ where: eq(jobs.id, id) }))!;

/** Runs the job's slices as the queue consumer would (an AppError fails it). */
async function drive(jobId: string, sliceMs?: number) {
  for (let i = 0; i < 100; i++) {
    const job = await jobRow(jobId);
    if (job.state !== 'queued' && job.state !== 'running') return job;
    if ((await runVerifySlice(deps(sliceMs), job)) !== 'continued') return jobRow(jobId);
  }
  throw new Error('the job did not end');
}

/**
 * A company whose tolerant import kept proficl@ss codes verbatim (the release was not loaded
 * then), and the release loaded afterwards.
 */
async function keptThenLoaded() {
  const admin = await makeSession({ role: 'admin' });
  const version = `t${crypto.randomUUID().slice(0, 8)}`;
  const release = `PROFICLASS-${version}`;
  const ids = await keepCodes(admin, version);
  const { job } = await loadRelease(
    { companyId: admin.companyId, departmentId: admin.departmentId, userId: admin.userId },
    { system: 'PROFICLASS', version, files: proficlassFiles() },
  );
  expect(job!.state).toBe('succeeded');
  return { admin, release, ids, loadJob: job! };
}

/** UpsertProducts' records into a new catalog of `admin`'s company as a tolerant import writes them. */
async function tolerantUpsert(
  admin: Awaited<ReturnType<typeof makeSession>>,
  records: Parameters<typeof upsertRecords>[1],
) {
  const catalog = await makeCatalog(admin.tenant);
  return upsertRecords(
    {
      db: db(),
      files: null,
      companyId: admin.companyId,
      actor: asActor(admin.tenant),
      catalogId: catalog.catalogId,
      mode: 'upsert',
      dryRun: false,
      cache: new ReferenceCache(db(), admin.companyId),
      tolerant: true,
      catalogLanguage: catalog.language,
    },
    records,
  );
}

/** A tolerant import that keeps proficl@ss codes of `version` verbatim (the release is not loaded yet). */
async function keepCodes(admin: Awaited<ReturnType<typeof makeSession>>, version: string) {
  const record = (sku: string, code: string, features: { code: string; value: string }[]) => ({
    sku,
    fields: { name: sku },
    classification: { classes: [{ system: `PROFICLASS ${version}`, code }], features },
  });
  const outcomes = await tolerantUpsert(admin, [
    record('GITTER', 'EAB006c006', [
      { code: 'AAA031f001', value: '1200 mm' },
      { code: 'AAA100f001', value: '1' },
      { code: 'AAA003f001', value: 'schwer' },
      { code: 'XXX999f001', value: 'egal' },
    ]),
    record('BAND', 'EAB005c012', [{ code: 'AAA358f001', value: 'AAD038v001' }]),
    record('FREMD', 'EAB999c999', [{ code: 'AAA358f001', value: 'rot' }]),
  ]);
  expect(outcomes.map((o) => o.status)).toEqual(['created', 'created', 'created']);
  return Object.fromEntries(outcomes.map((o) => [o.sku, o.productId!]));
}

const classificationOf = async (cookie: string, elementId: string) =>
  (await call('GET', `/api/Classification/GetElementClassification?elementId=${elementId}`, { cookie })).json
    .classification;

describe('verifying kept codes once their release is loaded', () => {
  it('turns codes the release knows into verified normalised values and reports the rest with reasons', async () => {
    const { admin, release, ids } = await keptThenLoaded();
    const before = await classificationOf(admin.cookie, ids.GITTER!);
    expect(before.classes).toMatchObject([{ code: 'EAB006c006', release: null, system: release.replace('-', ' ') }]);

    const started = await call('POST', '/api/Classification/StartVerifyCodes', {
      cookie: admin.cookie,
      headers: { Origin: 'http://pim.test' },
      body: { release },
    });
    expect(started.status, started.text).toBe(200);
    const job = await drive(started.json.jobId, 0);
    expect(job.state).toBe('succeeded');
    expect(job.summary).toEqual({
      checked: 3,
      classesVerified: 2,
      classesUnverified: 1,
      featuresVerified: 3,
      featuresUnverified: 3,
      otherRelease: 0,
    });
    expect(job.warnings).toEqual([
      `class EAB006c006 feature AAA003f001: "schwer" is not a number: kept unverified (1 classification)`,
      `class EAB999c999 is not in ${release}: kept unverified (1 classification)`,
      `feature XXX999f001 is not a feature of class EAB006c006 in ${release}: kept unverified (1 classification)`,
    ]);

    const gitter = await classificationOf(admin.cookie, ids.GITTER!);
    expect(gitter.classes).toMatchObject([
      { code: 'EAB006c006', release, system: release, name: 'Absperrgitter für Straßen' },
    ]);
    expect(gitter.features).toMatchObject([
      { code: 'AAA003f001', value: 'schwer', unit: null },
      { code: 'AAA031f001', value: '1200', unit: 'MMT', name: 'Höhe' },
      { code: 'AAA100f001', value: 'true' },
      { code: 'XXX999f001', value: 'egal' },
    ]);
    const band = await classificationOf(admin.cookie, ids.BAND!);
    expect(band.classes).toMatchObject([{ code: 'EAB005c012', release }]);
    const fremd = await classificationOf(admin.cookie, ids.FREMD!);
    expect(fremd.classes).toMatchObject([{ code: 'EAB999c999', release: null }]);

    // Each changed product has its history entry, written by the job.
    const versions = await db().select().from(historyVersions).where(eq(historyVersions.elementId, ids.GITTER!));
    const byJob = versions.filter((v) => v.jobId === job.id);
    expect(byJob).toHaveLength(1);
    expect(byJob[0]!.changes).toContain('classification.release.PROFICLASS');

    // Run again: the unknown class (and its value) stays; the values kept under the verified class are re-checked (and stay).
    const again = await startVerifyCodes(deps(), adminCaller(admin), { release });
    const second = await drive(again.jobId);
    expect(second.summary).toMatchObject({
      checked: 2,
      classesVerified: 0,
      classesUnverified: 1,
      featuresVerified: 0,
      featuresUnverified: 3,
    });
  });

  it('compares the class version a file gave with the release class, keeps it and reports a difference', async () => {
    const admin = await makeSession({ role: 'admin' });
    const version = `x${crypto.randomUUID().slice(0, 8)}`;
    const release = `ETIM-${version}`;
    const outcomes = await tolerantUpsert(admin, [
      // The release (etimIxfFile) has EC000905 in version 5: TIE says 3, BAND says 5.
      {
        sku: 'TIE',
        fields: { name: 'Tie' },
        classification: { classes: [{ system: release, code: 'EC000905', classVersion: 3 }], features: [] },
      },
      {
        sku: 'BAND',
        fields: { name: 'Band' },
        classification: { classes: [{ system: release, code: 'EC000905', classVersion: 5 }], features: [] },
      },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['created', 'created']);
    const ids = Object.fromEntries(outcomes.map((o) => [o.sku, o.productId!]));
    const { job: load } = await loadRelease(
      { companyId: admin.companyId, departmentId: admin.departmentId, userId: admin.userId },
      { system: 'ETIM', version, format: 'ETIM_XML', files: etimIxfFile({ releaseVersion: version }) },
    );
    expect(load!.state, load!.error ?? '').toBe('succeeded');
    const started = await startVerifyCodes(deps(), adminCaller(admin), { release });
    const job = await drive(started.jobId);
    expect(job.state).toBe('succeeded');
    expect(job.summary).toMatchObject({ checked: 2, classesVerified: 2, classesUnverified: 0 });
    expect(job.warnings).toEqual([
      `class EC000905 is version 3 in the file, version 5 in ${release} (1 classification)`,
    ]);
    expect((await classificationOf(admin.cookie, ids.TIE!)).classes).toMatchObject([
      { code: 'EC000905', release, classVersion: 3 },
    ]);
    expect((await classificationOf(admin.cookie, ids.BAND!)).classes).toMatchObject([
      { code: 'EC000905', release, classVersion: 5 },
    ]);
  });

  it('re-checks values kept as text under a class already of the release', async () => {
    const { admin, release, ids } = await keptThenLoaded();
    const first = await startVerifyCodes(deps(), adminCaller(admin), { release });
    expect((await drive(first.jobId)).state).toBe('succeeded');
    // What a tolerant import against the loaded release keeps: a value as its file wrote it, flagged.
    const [link] = await db()
      .select({ id: classificationLinks.id })
      .from(classificationLinks)
      .where(eq(classificationLinks.elementId, ids.GITTER!));
    await db()
      .update(classificationLinkFeatures)
      .set({ value: '2,5', unverified: true })
      .where(and(eq(classificationLinkFeatures.linkId, link!.id), eq(classificationLinkFeatures.code, 'AAA003f001')));
    const again = await startVerifyCodes(deps(), adminCaller(admin), { release });
    expect((await jobRow(again.jobId)).progressTotal).toBe(2);
    const second = await drive(again.jobId);
    expect(second.summary).toEqual({
      checked: 2,
      classesVerified: 0,
      classesUnverified: 1,
      featuresVerified: 1,
      featuresUnverified: 2,
      otherRelease: 0,
    });
    const gitter = await classificationOf(admin.cookie, ids.GITTER!);
    expect(gitter.classes).toMatchObject([{ code: 'EAB006c006', release }]);
    expect(gitter.features).toMatchObject([
      { code: 'AAA003f001', value: '2.5' },
      { code: 'AAA031f001', value: '1200', unit: 'MMT' },
      { code: 'AAA100f001', value: 'true' },
      { code: 'XXX999f001', value: 'egal' },
    ]);
    const kept = await db()
      .select({ code: classificationLinkFeatures.code })
      .from(classificationLinkFeatures)
      .where(and(eq(classificationLinkFeatures.linkId, link!.id), eq(classificationLinkFeatures.unverified, true)));
    expect(kept.map((k) => k.code)).toEqual(['XXX999f001']);
  });

  it('reads a kept number in the unit its file gave: the release unit verifies it, another unit keeps it as text with that unit', async () => {
    const admin = await makeSession({ role: 'admin' });
    const version = `u${crypto.randomUUID().slice(0, 8)}`;
    const release = `PROFICLASS-${version}`;
    const record = (sku: string, value: string, unit: string) => ({
      sku,
      fields: { name: sku },
      classification: {
        classes: [{ system: `PROFICLASS ${version}`, code: 'EAB006c006' }],
        features: [{ code: 'AAA031f001', value, unit }],
      },
    });
    // Issue 32: a tolerant import keeps the unit a file gave a value no reference data confirms.
    const outcomes = await tolerantUpsert(admin, [record('IN-MM', '1200', 'MMT'), record('IN-CM', '120', 'CMT')]);
    const ids = Object.fromEntries(outcomes.map((o) => [o.sku, o.productId!]));
    expect((await classificationOf(admin.cookie, ids['IN-CM']!)).features).toMatchObject([
      { code: 'AAA031f001', value: '120', unit: 'CMT' },
    ]);
    const { job: load } = await loadRelease(
      { companyId: admin.companyId, departmentId: admin.departmentId, userId: admin.userId },
      { system: 'PROFICLASS', version, files: proficlassFiles() },
    );
    expect(load!.state).toBe('succeeded');
    const started = await startVerifyCodes(deps(), adminCaller(admin), { release });
    const job = await drive(started.jobId);
    expect(job.summary).toMatchObject({ classesVerified: 2, featuresVerified: 1, featuresUnverified: 1 });
    expect((await classificationOf(admin.cookie, ids['IN-MM']!)).features).toMatchObject([
      { code: 'AAA031f001', value: '1200', unit: 'MMT' },
    ]);
    // 120 cm is not 120 mm: the value stays the file's text, with the file's unit.
    expect((await classificationOf(admin.cookie, ids['IN-CM']!)).features).toMatchObject([
      { code: 'AAA031f001', value: '120', unit: 'CMT' },
    ]);
    const [row] = await db()
      .select({ unverified: classificationLinkFeatures.unverified })
      .from(classificationLinkFeatures)
      .innerJoin(classificationLinks, eq(classificationLinks.id, classificationLinkFeatures.linkId))
      .where(eq(classificationLinks.elementId, ids['IN-CM']!));
    expect(row!.unverified).toBe(true);
  });

  it('a release load queues the verification itself: one job per company holding its codes, none twice', async () => {
    const version = `a${crypto.randomUUID().slice(0, 8)}`;
    const release = `PROFICLASS-${version}`;
    const one = await makeSession({ role: 'admin' });
    const two = await makeSession({ role: 'admin' });
    const untouched = await makeSession({ role: 'admin' });
    await keepCodes(one, version);
    await keepCodes(two, version);
    const { job: load } = await loadRelease(
      { companyId: untouched.companyId, departmentId: untouched.departmentId, userId: untouched.userId },
      { system: 'PROFICLASS', version, files: proficlassFiles() },
    );
    expect(load!.summary).toMatchObject({ verifyJobs: 2 });
    const queued = async (companyId: string) =>
      (
        await db()
          .select()
          .from(jobs)
          .where(and(eq(jobs.companyId, companyId), eq(jobs.kind, 'releaseVerify')))
      ).filter((j) => (j.params as { release: string }).release === release);
    const [mine] = await queued(one.companyId);
    expect(mine).toMatchObject({ state: 'queued', userId: one.userId, progressTotal: 3 });
    expect(await queued(two.companyId)).toHaveLength(1);
    expect(await queued(untouched.companyId)).toHaveLength(0);

    // The same release loaded again (replace) while the jobs wait queues none twice.
    const { job: reload } = await loadRelease(
      { companyId: untouched.companyId, departmentId: untouched.departmentId, userId: untouched.userId },
      { system: 'PROFICLASS', version, files: proficlassFiles(), replace: true },
    );
    expect(reload!.summary).toMatchObject({ verifyJobs: 0 });
    expect(await queued(one.companyId)).toHaveLength(1);

    const done = await drive(mine!.id);
    expect(done.summary).toMatchObject({ checked: 3, classesVerified: 2, classesUnverified: 1 });
  });

  it('a company with nothing kept gets a job that ends with every count, all 0', async () => {
    const admin = await makeSession({ role: 'admin' });
    const version = `t${crypto.randomUUID().slice(0, 8)}`;
    const { job: load } = await loadRelease(
      { companyId: admin.companyId, departmentId: admin.departmentId, userId: admin.userId },
      { system: 'PROFICLASS', version, files: proficlassFiles() },
    );
    expect(load!.state).toBe('succeeded');
    const started = await startVerifyCodes(deps(), adminCaller(admin), { release: `PROFICLASS-${version}` });
    const done = await drive(started.jobId);
    expect(done.state).toBe('succeeded');
    expect(done.summary).toEqual({
      checked: 0,
      classesVerified: 0,
      classesUnverified: 0,
      featuresVerified: 0,
      featuresUnverified: 0,
      otherRelease: 0,
    });
    expect(done.warnings).toEqual([]);
  });

  it('refuses a release that is not loaded with 400 and a non-admin with 403', async () => {
    const editor = await makeSession();
    const admin = await makeSession({ role: 'admin' });
    const post = (cookie: string, body: unknown) =>
      call('POST', '/api/Classification/StartVerifyCodes', { cookie, headers: { Origin: 'http://pim.test' }, body });
    const missing = await post(admin.cookie, { release: 'ETIM-0.nope' });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('release: ETIM-0.nope is not loaded');
    const forbidden = await post(editor.cookie, { release: 'ETIM-0.nope' });
    expect(forbidden.status).toBe(403);
  });

  it('resumes from its checkpoint: a later slice continues after the last saved page', async () => {
    const { admin, release, ids } = await keptThenLoaded();
    const started = await startVerifyCodes(deps(), adminCaller(admin), { release });
    // A worker that dies after the first page: the checkpoint holds what was written.
    const first = await jobRow(started.jobId);
    await runVerifySlice(deps(-1), first);
    const mid = await jobRow(started.jobId);
    expect(mid.state).toBe('running');
    expect((mid.checkpoint as { counts: { checked: number } }).counts.checked).toBe(3);
    const done = await drive(started.jobId);
    expect(done.state).toBe('succeeded');
    expect(done.summary).toMatchObject({ checked: 3, classesVerified: 2 });
    expect((await classificationOf(admin.cookie, ids.BAND!)).classes[0].release).toBe(release);
    await failLinkPages(db(), done, 'late');
    expect((await jobRow(started.jobId)).state).toBe('succeeded');
  });
});
