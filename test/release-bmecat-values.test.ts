import { describe, expect, it } from 'vitest';
import { getReleaseClassFeatures } from '../src/releases/release-search';
import { db, makeCompany, makeUser } from './helpers/factories';
import { bmecatInlineValues } from './helpers/release-bmecat-fixture';
import { loadRelease } from './helpers/release-fixtures';

const admin = async () => makeUser(await makeCompany(), { role: 'admin' });

describe('BMEcat feature systems: inline value lists (FT_VALUES)', () => {
  it("reads a template's own list for every class using it, a class's own list over it, in every language", async () => {
    const a = await admin();
    const v = `x${crypto.randomUUID().slice(0, 8)}`;
    const release = `SUPPLIER-${v}`;
    const { job } = await loadRelease(a, {
      system: 'SUPPLIER',
      version: v,
      format: 'BMECAT_FEATURE_SYSTEM',
      files: bmecatInlineValues(),
    });
    expect(job!.state, job!.error ?? '').toBe('succeeded');
    // Values: AV-STEEL, V-PA, "stainless steel" (no VALUE_ID: its text in the load's language, en), M8, M10, PE.
    expect(job!.summary).toMatchObject({ classes: 2, features: 2, values: 6, classFeatures: 3, classFeatureValues: 6 });
    const ties = await getReleaseClassFeatures(db(), { release, classCode: 'G-TIES', lang: 'en' });
    expect(ties.features.map((f) => [f.code, f.values])).toEqual([
      [
        'F-MATERIAL',
        [
          { code: 'stainless steel', name: 'stainless steel' },
          { code: 'V-PA', name: 'polyamide' },
        ],
      ],
      [
        'F-SIZE',
        [
          { code: 'M8', name: 'M8' },
          { code: 'M10', name: 'M10' },
        ],
      ],
    ]);
    const tiesDe = await getReleaseClassFeatures(db(), { release, classCode: 'G-TIES', lang: 'de' });
    expect(tiesDe.features[0]!.values.map((x) => x.name)).toEqual(['Edelstahl', 'Polyamid']);
    const clips = await getReleaseClassFeatures(db(), { release, classCode: 'G-CLIPS', lang: 'de' });
    expect(clips.features[0]!.values).toEqual([
      { code: 'AV-STEEL', name: 'Stahl' },
      { code: 'PE', name: 'PE' },
    ]);
  });

  it('refuses an FT_VALUE with no value, naming file, line and feature', async () => {
    const a = await admin();
    const { job } = await loadRelease(a, {
      system: 'SUPPLIER',
      version: `x${crypto.randomUUID().slice(0, 8)}`,
      format: 'BMECAT_FEATURE_SYSTEM',
      files: bmecatInlineValues({ broken: true }),
    });
    expect(job!.state).toBe('failed');
    expect(job!.error).toBe(
      'inline-values.xml line 11: FT_VALUE of F-MATERIAL has no VALUE_IDREF, VALUE_SIMPLE or VALUE_TEXT',
    );
  });
});
