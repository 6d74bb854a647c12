import { describe, expect, it } from 'vitest';
import { getReleases } from '../src/releases/release-queries';
import { getReleaseClassFeatures, searchReleaseClasses } from '../src/releases/release-search';
import { db, makeCompany, makeUser } from './helpers/factories';
import { loadRelease, releaseDeps } from './helpers/release-fixtures';
import { etimIxfFile } from './helpers/release-ixf-fixture';

const version = () => `x${crypto.randomUUID().slice(0, 8)}`;
const admin = async () => makeUser(await makeCompany(), { role: 'admin' });

describe('loading an ETIM release in ETIM IXF (ETIM_XML)', () => {
  it('loads every language of the file, synonyms, typed features, units and class values; deleted assignments are left out', async () => {
    const a = await admin();
    const v = version();
    const { job } = await loadRelease(a, { system: 'ETIM', version: v, format: 'ETIM_XML', files: etimIxfFile() });
    expect(job!.state).toBe('succeeded');
    expect(job!.summary).toMatchObject({
      classes: 2,
      features: 3,
      values: 2,
      units: 1,
      synonyms: 2,
      classFeatures: 3,
      classFeatureValues: 2,
    });
    const release = `ETIM-${v}`;
    expect((await getReleases(db(), a)).items.find((r) => r.release === release)!.languages).toEqual(['en', 'de-DE']);
    expect((await searchReleaseClasses(db(), { release, q: 'Kabelband', lang: 'de-DE', limit: 5 })).items).toEqual([
      {
        code: 'EC000905',
        name: 'Kabelbinder',
        lang: 'de-DE',
        parentCode: null,
        deprecated: false,
        successor: null,
        group: { code: 'EG000017', name: 'Installationsmaterial' },
      },
    ]);
    const features = await getReleaseClassFeatures(db(), { release, classCode: 'EC000905', lang: 'en' });
    expect(features.class.name).toBe('Cable tie');
    expect(features.features.map((f) => [f.code, f.type, f.unit?.symbol ?? null, f.values.map((x) => x.name)])).toEqual(
      [
        ['EF000008', 'N', 'mm', []],
        ['EF000007', 'A', null, ['White', 'Black']],
      ],
    );
    const duct = await getReleaseClassFeatures(db(), { release, classCode: 'EC000042', lang: 'en' });
    expect(duct.features.map((f) => [f.code, f.type])).toEqual([['EF000139', 'L']]);
  });

  it('resumes over slices with the same counts, and a second load of the loaded release changes nothing', async () => {
    const a = await admin();
    const v = version();
    const deps = releaseDeps({ sliceMs: 0, batchRows: 2 });
    const { job } = await loadRelease(
      a,
      { system: 'ETIM', version: v, format: 'ETIM_XML', files: etimIxfFile() },
      deps,
    );
    expect(job!.state).toBe('succeeded');
    expect(job!.summary).toMatchObject({ classes: 2, features: 3, values: 2, classFeatures: 3, classFeatureValues: 2 });
    const again = await loadRelease(a, { system: 'ETIM', version: v, format: 'ETIM_XML', files: etimIxfFile() });
    expect(again.started).toEqual({ releaseId: job!.summary!.releaseId, status: 'loaded', jobId: null });
  });

  it('fails a class value the file does not define with file, line and reason, and loads nothing', async () => {
    const a = await admin();
    const v = version();
    const { job } = await loadRelease(a, {
      system: 'ETIM',
      version: v,
      format: 'ETIM_XML',
      files: etimIxfFile({ brokenRef: true }),
    });
    expect(job!.state).toBe('failed');
    expect(job!.error).toBe("ETIMIXF3_1.xml line 30: value EV000999 is not in the release's value file");
    expect((await getReleases(db(), a)).items.find((r) => r.release === `ETIM-${v}` && r.status === 'loaded')).toBe(
      undefined,
    );
  });

  it('refuses an XML file whose root is not IXF', async () => {
    const a = await admin();
    const { job } = await loadRelease(a, {
      system: 'ETIM',
      version: version(),
      format: 'ETIM_XML',
      files: etimIxfFile({ root: 'BMECAT' }),
    });
    expect(job!.error).toBe('ETIMIXF3_1.xml line 2: the root element is BMECAT, not IXF (an ETIM IXF file)');
  });
});
