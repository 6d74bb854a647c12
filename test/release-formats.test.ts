import { describe, expect, it } from 'vitest';
import { getReleases } from '../src/releases/release-queries';
import { getReleaseClassFeatures, searchReleaseClasses } from '../src/releases/release-search';
import { db, makeCompany, makeUser } from './helpers/factories';
import { bmecatFeatureSystem } from './helpers/release-bmecat-fixture';
import { eclassFiles, etimFiles, loadRelease } from './helpers/release-fixtures';

const version = () => `t${crypto.randomUUID().slice(0, 8)}`;

async function admin() {
  return makeUser(await makeCompany(), { role: 'admin' });
}

describe('loading an ETIM release (ETIM CSV)', () => {
  it('loads names in two languages, synonyms, per-class feature types, units and values', async () => {
    const a = await admin();
    const v = version();
    const { job } = await loadRelease(a, { system: 'ETIM', version: v, files: etimFiles() });
    expect(job!.state).toBe('succeeded');
    const release = `ETIM-${v}`;
    expect((await getReleases(db(), a)).items.find((r) => r.release === release)!.languages).toEqual(['en', 'de']);
    const byName = await searchReleaseClasses(db(), { release, q: 'Kabelbinder', lang: 'en', limit: 5 });
    expect(byName.items).toEqual([
      {
        code: 'EC000905',
        name: 'Cable tie',
        lang: 'en',
        parentCode: null,
        deprecated: false,
        successor: null,
        group: null,
      },
    ]);
    expect((await searchReleaseClasses(db(), { release, q: 'zip', limit: 5 })).items.map((i) => i.code)).toEqual([
      'EC000905',
    ]);
    expect((await searchReleaseClasses(db(), { release, q: 'ec0009', limit: 5 })).items.map((i) => i.code)).toEqual([
      'EC000905',
    ]);
    const features = await getReleaseClassFeatures(db(), { release, classCode: 'EC000905', lang: 'de' });
    expect(features.class.name).toBe('Kabelbinder');
    expect(features.features.map((f) => [f.code, f.type, f.unit?.symbol ?? null, f.values.map((x) => x.name)])).toEqual(
      [
        ['EF000008', 'N', 'mm', []],
        ['EF000007', 'A', null, ['White', 'Black']],
        ['EF000139', 'L', null, []],
        ['EF000001', 'R', null, []],
      ],
    );
  });

  it('refuses a code that is not an ETIM code, naming file and line', async () => {
    const a = await admin();
    const files = etimFiles();
    files['ETIMFEATURE.csv'] = { content: 'FEATUREID;FEATUREDESC\nEF000008;Width\nXF12;Broken\n' };
    const { job } = await loadRelease(a, { system: 'ETIM', version: version(), files });
    expect(job!.error).toBe('ETIMFEATURE.csv line 3: FEATUREID "XF12" is not an ETIM code (^EF\\d{6}$)');
  });

  it('answers 404 for a release that is not loaded', async () => {
    await expect(searchReleaseClasses(db(), { release: 'ETIM-0.1', q: 'x', limit: 5 })).rejects.toThrow(
      'release ETIM-0.1 is not loaded',
    );
  });
});

describe('loading an eCl@ss release (basic CSV)', () => {
  it('loads classes by coded name with their hierarchy, properties by IRDI with type and unit, suggested values and synonyms', async () => {
    const a = await admin();
    const v = version();
    const { job } = await loadRelease(a, { system: 'ECLASS', version: v, files: eclassFiles() });
    expect(job!.state).toBe('succeeded');
    // The property keyword of the KWSY file is passed over, not reported as a repeated row.
    expect(job!.warnings).toBeNull();
    expect(job!.summary).toMatchObject({
      classes: 4,
      features: 3,
      values: 2,
      units: 1,
      synonyms: 1,
      classFeatures: 3,
      classFeatureValues: 2,
    });
    const release = `ECLASS-${v}`;
    expect((await searchReleaseClasses(db(), { release, q: 'MCB', limit: 5 })).items).toEqual([
      {
        code: '27141190',
        name: 'Miniature circuit breaker',
        lang: 'en',
        parentCode: '27141100',
        deprecated: false,
        successor: null,
        group: null,
      },
    ]);
    const features = await getReleaseClassFeatures(db(), { release, classCode: '27141190' });
    expect(features.features.map((f) => [f.code, f.type, f.unit?.unece ?? null, f.values.map((x) => x.name)])).toEqual([
      ['0173-1#02-BAA020#001', 'N', 'MMT', []],
      ['0173-1#02-AAO677#001', 'A', null, ['grey', 'white']],
      ['0173-1#02-BAD853#001', 'L', null, []],
    ]);
  });
});

describe('loading the feature system of a BMEcat 2005 file', () => {
  it('loads groups with hierarchy and synonyms, feature templates with type and unit, allowed values, names by lang', async () => {
    const a = await admin();
    const v = version();
    const release = `SUPPLIER-${v}`;
    const { job } = await loadRelease(a, {
      system: 'SUPPLIER',
      version: v,
      format: 'BMECAT_FEATURE_SYSTEM',
      files: bmecatFeatureSystem(),
    });
    expect(job!.state).toBe('succeeded');
    expect(job!.summary).toMatchObject({
      classes: 2,
      features: 2,
      values: 2,
      units: 1,
      synonyms: 1,
      classFeatures: 2,
      classFeatureValues: 2,
    });
    expect((await getReleases(db(), a)).items.find((r) => r.release === release)!.languages).toEqual(['de', 'en']);
    expect((await searchReleaseClasses(db(), { release, q: 'zip', lang: 'de', limit: 5 })).items).toEqual([
      {
        code: 'G-TIES',
        name: 'Kabelbinder',
        lang: 'de',
        parentCode: 'G-FIX',
        deprecated: false,
        successor: null,
        group: null,
      },
    ]);
    const features = await getReleaseClassFeatures(db(), { release, classCode: 'G-TIES', lang: 'en' });
    expect(
      features.features.map((f) => [
        f.code,
        f.name,
        f.type,
        f.mandatory,
        f.unit?.symbol ?? null,
        f.values.map((x) => x.name),
      ]),
    ).toEqual([
      ['F-LENGTH', 'Länge', 'N', true, 'mm', []],
      ['F-COLOUR', 'Colour', 'A', null, null, ['red', 'blau']],
    ]);
  });

  it('fails an allowed value reference the file does not define, with file, line and reason', async () => {
    const a = await admin();
    const { job } = await loadRelease(a, {
      system: 'SUPPLIER',
      version: version(),
      format: 'BMECAT_FEATURE_SYSTEM',
      files: bmecatFeatureSystem({ brokenRef: true }),
    });
    expect(job!.error).toBe("supplier-2005.xml line 22: value AV-GREEN is not in the release's value file");
  });
});
