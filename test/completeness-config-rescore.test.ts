import { env } from 'cloudflare:workers';
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema';
import { runCompletenessSlice } from '../src/completeness/recompute';
import { db, makeAttribute, makeProduct, makeSession } from './helpers/factories';
import { get, post, shopSetup, waitForJob } from './helpers/completeness';
import { jobRow, loadRelease, proficlassFiles } from './helpers/release-fixtures';

/**
 * Scores kept current when something the rules read changes outside the products
 * (docs/completeness.md "Scores kept current"): an attribute turned localizable or back, a
 * release the rules name loaded again. Each queues a recompute of every channel.
 */
type Admin = Awaited<ReturnType<typeof makeSession>>;

async function channel(admin: Admin, languages: string[], requirements: unknown[]) {
  const res = await post(admin.cookie, '/api/Catalog/AddChannel', {
    name: `Shop ${crypto.randomUUID()}`,
    languages,
    requirements,
  });
  expect(res.status, res.text).toBe(200);
  expect((await waitForJob(admin.cookie, res.json.jobId)).state).toBe('succeeded');
}

/** The product's score per language in its first channel. */
async function scores(admin: Admin, productId: string): Promise<Record<string, number>> {
  const res = await get(admin.cookie, `/api/Catalog/GetCompleteness?productId=${productId}`);
  expect(res.status, res.text).toBe(200);
  const entries = res.json.channels[0].languages as { language: string; score: number }[];
  return Object.fromEntries(entries.map((e) => [e.language, e.score]));
}

/** The company's `completeness` jobs started for `reason` (the attribute's code or the release), newest first. */
const rescoreJobs = async (companyId: string, reason: { attribute?: string; release?: string }) =>
  (
    await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.companyId, companyId), eq(jobs.kind, 'completeness')))
      .orderBy(desc(jobs.createdAt))
  ).filter((j) => {
    const params = j.params as { attribute?: string; release?: string; everyChannel?: boolean };
    return params.everyChannel === true && params.attribute === reason.attribute && params.release === reason.release;
  });

describe('Scores kept current after an attribute turns localizable', () => {
  it('recomputes every channel when a rule names the attribute, and queues nothing otherwise', async () => {
    const { admin, catalog } = await shopSetup();
    const colour = await makeAttribute(admin.tenant, {
      type: 'text',
      code: `colour_${crypto.randomUUID().slice(0, 8)}`,
    });
    const other = await makeAttribute(admin.tenant, { type: 'text', code: `other_${crypto.randomUUID().slice(0, 8)}` });
    await channel(admin, ['deu', 'eng'], [{ kind: 'attribute', attribute: colour.code }]);
    const product = await makeProduct(admin.tenant, catalog.catalogId);
    const base = { departmentId: admin.departmentId, elementId: product.productId };
    const set = await post(admin.cookie, '/api/Catalog/SetValue', { ...base, field: colour.code, value: 'rot' });
    expect(set.status, set.text).toBe(200);
    // Not localizable: the one neutral value counts in English too.
    expect(await scores(admin, product.productId)).toEqual({ deu: 100, eng: 100 });

    const update = (attribute: typeof colour, localizable: boolean) =>
      post(admin.cookie, '/api/Catalog/UpdateAttribute', {
        attributeId: attribute.attributeId,
        code: attribute.code,
        name: attribute.name,
        type: 'text',
        localizable,
      });
    const plain = await update(other, true);
    expect(plain.status, plain.text).toBe(200);
    expect(plain.json.localizable).toBe(true);
    expect(await rescoreJobs(admin.companyId, { attribute: other.code })).toHaveLength(0);

    const turned = await update(colour, true);
    expect(turned.status, turned.text).toBe(200);
    expect(turned.json).toMatchObject({ code: colour.code, localizable: true });
    const [job] = await rescoreJobs(admin.companyId, { attribute: colour.code });
    expect((await waitForJob(admin.cookie, job!.id)).state).toBe('succeeded');
    // Localizable: English now needs its own text.
    expect(await scores(admin, product.productId)).toEqual({ deu: 100, eng: 0 });
    const english = await post(admin.cookie, '/api/Catalog/SetValue', {
      ...base,
      field: colour.code,
      value: 'red',
      language: 'eng',
    });
    expect(english.status, english.text).toBe(200);
    expect(await scores(admin, product.productId)).toEqual({ deu: 100, eng: 100 });

    // Back to one neutral value: recomputed again; the same name and flag again queue nothing.
    const back = await update(colour, false);
    expect(back.status, back.text).toBe(200);
    const again = await rescoreJobs(admin.companyId, { attribute: colour.code });
    expect(again).toHaveLength(2);
    expect((await waitForJob(admin.cookie, again[0]!.id)).state).toBe('succeeded');
    expect(await scores(admin, product.productId)).toEqual({ deu: 100, eng: 100 });
    expect((await update(colour, false)).status).toBe(200);
    expect(await rescoreJobs(admin.companyId, { attribute: colour.code })).toHaveLength(2);
  });
});

describe('Scores kept current after a release is loaded again', () => {
  it('queues a recompute for each company whose channel rules name the release, none twice', async () => {
    const version = `r${crypto.randomUUID().slice(0, 8)}`;
    const release = `PROFICLASS-${version}`;
    const naming = await makeSession({ role: 'admin' });
    const bystander = await makeSession({ role: 'admin' });
    const loader = { companyId: bystander.companyId, departmentId: bystander.departmentId, userId: bystander.userId };
    const first = await loadRelease(loader, { system: 'PROFICLASS', version, files: proficlassFiles() });
    expect(first.job!.summary).toMatchObject({ rescoreJobs: 0 });
    await channel(naming, ['deu'], [{ kind: 'features', system: 'PROFICLASS', release, share: 'all' }]);
    await channel(bystander, ['deu'], [{ kind: 'field', field: 'name' }]);

    const reload = await loadRelease(loader, {
      system: 'PROFICLASS',
      version,
      files: proficlassFiles(),
      replace: true,
    });
    expect(reload.job!.state).toBe('succeeded');
    expect(reload.job!.summary).toMatchObject({ rescoreJobs: 1 });
    const [queued, ...more] = await rescoreJobs(naming.companyId, { release });
    expect(more).toHaveLength(0);
    // In the name of the company's administrator, in its own cell's queue.
    expect(queued).toMatchObject({ state: 'queued', userId: naming.userId, params: { everyChannel: true, release } });
    expect(await rescoreJobs(bystander.companyId, { release })).toHaveLength(0);

    // Loaded again while that job waits (the test's queue holds it): none twice.
    const third = await loadRelease(loader, { system: 'PROFICLASS', version, files: proficlassFiles(), replace: true });
    expect(third.job!.summary).toMatchObject({ rescoreJobs: 0 });
    expect(await rescoreJobs(naming.companyId, { release })).toHaveLength(1);

    const deps = { db: db(), queue: env.EXPORT_HOLD_QUEUE, sliceMs: 60_000 };
    expect(await runCompletenessSlice(deps, await jobRow(queued!.id))).toBe('finished');
    expect(await jobRow(queued!.id)).toMatchObject({ state: 'succeeded' });
  });
});
