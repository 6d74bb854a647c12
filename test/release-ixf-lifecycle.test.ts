import { describe, expect, it } from 'vitest';
import { getReleases } from '../src/releases/release-queries';
import { getReleaseClassFeatures, searchReleaseClasses } from '../src/releases/release-search';
import { db, makeCatalog, makeCompany, makeProduct, makeSession, makeUser } from './helpers/factories';
import { call } from './helpers/http';
import { loadRelease } from './helpers/release-fixtures';
import { etimIxfFile } from './helpers/release-ixf-fixture';

const tag = () => crypto.randomUUID().slice(0, 8);
const admin = async () => makeUser(await makeCompany(), { role: 'admin' });
const ixf = (version: string, options: Parameters<typeof etimIxfFile>[0] = {}) => ({
  system: 'ETIM',
  version,
  format: 'ETIM_XML' as const,
  files: etimIxfFile(options),
});

describe('ETIM IXF: the Header, groups, class versions and lifecycle', () => {
  it('refuses a file whose Header states another release than the request, before writing anything', async () => {
    const a = await admin();
    const { job } = await loadRelease(a, ixf('91.0', { releaseVersion: '92.0' }));
    expect(job!.state).toBe('failed');
    expect(job!.error).toBe(
      'ETIMIXF3_1.xml line 3: the file is ETIM 92.0 (Header 92.0 of 2026-01-02), not the requested version 91.0',
    );
    const dynamic = await loadRelease(a, ixf('93.0'));
    expect(dynamic.job!.error).toContain('the file is a dynamic ETIM release (Header DYNAMIC of 2026-01-02)');
    const badDate = await loadRelease(a, ixf(`x${tag()}`, { releaseDate: 'soon' }));
    expect(badDate.job!.error).toBe('ETIMIXF3_1.xml line 3: Header release date "soon" is not a date (YYYY-MM-DD)');
    const items = (await getReleases(db(), a)).items;
    const failed = items.filter((r) => r.release === 'ETIM-91.0' || r.release === 'ETIM-93.0');
    expect(failed.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(failed.map((r) => r.counts)).toEqual([{}, {}]);
  });

  it('loads a file whose Header names the requested release in any spelling (ETIM-94.0 for 94)', async () => {
    const a = await admin();
    const { job } = await loadRelease(a, ixf('94', { releaseVersion: 'ETIM-94.0' }));
    expect(job!.state, job!.error ?? '').toBe('succeeded');
  });

  it('keeps each class group with its names: search shows it and filters by it, the class features read it', async () => {
    const a = await admin();
    const v = `x${tag()}`;
    const { job } = await loadRelease(a, ixf(v));
    expect(job!.state, job!.error ?? '').toBe('succeeded');
    const release = `ETIM-${v}`;
    const all = await searchReleaseClasses(db(), { release, q: 'EC', lang: 'en', limit: 10 });
    expect(all.items.map((i) => [i.code, i.group])).toEqual([
      ['EC000042', { code: 'EG000020', name: 'Cable management' }],
      ['EC000905', { code: 'EG000017', name: 'Installation material' }],
    ]);
    const byCode = await searchReleaseClasses(db(), { release, q: 'EC', group: 'EG000020', limit: 10 });
    expect(byCode.items.map((i) => i.code)).toEqual(['EC000042']);
    const byName = await searchReleaseClasses(db(), { release, q: 'cable', group: 'EG000017', limit: 10 });
    expect(byName.items.map((i) => i.code)).toEqual(['EC000905']);
    expect((await searchReleaseClasses(db(), { release, q: 'cable', limit: 10 })).items).toHaveLength(2);
    const tie = await getReleaseClassFeatures(db(), { release, classCode: 'EC000905', lang: 'de-DE' });
    expect(tie.class.group).toEqual({ code: 'EG000017', name: 'Installationsmaterial' });
  });

  it('refuses a class whose group the file does not define', async () => {
    const a = await admin();
    const files = etimIxfFile();
    const name = Object.keys(files)[0]!;
    files[name]!.content = files[name]!.content.replace(
      '<GroupCode>EG000020</GroupCode>',
      '<GroupCode>EG000777</GroupCode>',
    );
    const { job } = await loadRelease(a, { system: 'ETIM', version: `x${tag()}`, format: 'ETIM_XML', files });
    expect(job!.state).toBe('failed');
    expect(job!.error).toMatch(/^ETIMIXF3_1\.xml line \d+: group EG000777 is not in the release's group file$/);
  });

  it('reads Status, Deprecated and ReplacedBy into deprecation and successors; the upgrade dry run follows them', async () => {
    const session = await makeSession({ role: 'admin' });
    const who = { companyId: session.companyId, departmentId: session.departmentId, userId: session.userId };
    const t = tag();
    const [from, to] = [`ETIM-o${t}`, `ETIM-n${t}`];
    expect((await loadRelease(who, ixf(`o${t}`))).job!.state).toBe('succeeded');
    const loaded = await loadRelease(who, ixf(`n${t}`, { retired: true }));
    expect(loaded.job!.state, loaded.job!.error ?? '').toBe('succeeded');
    const duct = (await searchReleaseClasses(db(), { release: to, q: 'EC000042', limit: 1 })).items[0]!;
    expect([duct.deprecated, duct.successor]).toEqual([true, 'EC000905']);
    const stillOld = (await searchReleaseClasses(db(), { release: from, q: 'EC000042', limit: 1 })).items[0]!;
    expect([stillOld.deprecated, stillOld.successor]).toEqual([false, null]);
    const features = await getReleaseClassFeatures(db(), { release: to, classCode: 'EC000042' });
    expect(features.features.map((f) => [f.code, f.deprecated, f.successor])).toEqual([['EF000139', true, null]]);

    const catalog = await makeCatalog(session.tenant);
    const product = await makeProduct(session.tenant, catalog.catalogId);
    const set = await call('POST', '/api/Classification/SetElementClassification', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        elementId: product.productId,
        classes: [{ group: 'ETIM', code: 'EC000042', release: from }],
        features: [{ code: 'EF000139', value: 'true' }],
      },
    });
    expect(set.status, set.text).toBe(200);
    const plan = await call('POST', '/api/Classification/PlanReleaseUpgrade', {
      cookie: session.cookie,
      headers: { Origin: 'http://pim.test' },
      body: { from, to, catalogId: catalog.catalogId },
    });
    expect(plan.status, plan.text).toBe(200);
    expect(plan.json.automatic).toContainEqual({ line: `class EC000042 -> EC000905 (successor in ${to})`, count: 1 });
  });
});
