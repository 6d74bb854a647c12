import { describe, expect, it } from 'vitest';
import { getReleases } from '../src/releases/release-queries';
import { getReleaseClassFeatures, searchReleaseClasses } from '../src/releases/release-search';
import { startReleaseLoad } from '../src/releases/start-release-load';
import { db, makeCompany, makeUser } from './helpers/factories';
import {
  adminCaller,
  operatorCaller,
  drive,
  jobRow,
  latin1,
  loadRelease,
  proficlassFiles,
  releaseDeps,
  uploadRelease,
} from './helpers/release-fixtures';

const version = () => `t${crypto.randomUUID().slice(0, 8)}`;

async function admin() {
  return makeUser(await makeCompany(), { role: 'admin' });
}

describe('loading a proficl@ss release (single CSV files, ISO-8859-1)', () => {
  it('loads every file with counts equal to the rows, hierarchy, types, units, values and synonyms', async () => {
    const a = await admin();
    const v = version();
    const { started, job } = await loadRelease(a, { system: 'PROFICLASS', version: v, files: proficlassFiles() });
    expect(job!.state).toBe('succeeded');
    expect(job!.summary).toMatchObject({
      releaseId: started.releaseId,
      classes: 4,
      features: 4,
      values: 2,
      units: 2,
      synonyms: 2,
      classFeatures: 4,
      classFeatureValues: 2,
    });
    // The value map repeats one row: loaded once, and the job says so.
    expect(job!.warnings).toEqual([
      'KlassenMerkmaleWerte_rel.csv: 1 of 3 rows repeat an earlier row and were loaded once',
    ]);
    const release = (await getReleases(db(), a)).items.find((r) => r.releaseId === started.releaseId)!;
    expect(release).toMatchObject({ release: `PROFICLASS-${v}`, status: 'loaded', languages: ['de'] });

    const features = await getReleaseClassFeatures(db(), { release: `PROFICLASS-${v}`, classCode: 'EAB006c006' });
    expect(features.class).toMatchObject({ name: 'Absperrgitter für Straßen', parentCode: 'EAB004h003' });
    expect(features.features.map((f) => [f.code, f.name, f.type, f.mandatory, f.unit?.unece ?? null])).toEqual([
      ['AAA003f001', 'Gewicht', 'N', false, null],
      ['AAA031f001', 'Höhe', 'N', true, 'MMT'],
      ['AAA100f001', 'Reflektierend', 'L', false, null],
    ]);
    const tape = await getReleaseClassFeatures(db(), { release: `PROFICLASS-${v}`, classCode: 'EAB005c012' });
    expect(tape.features[0]!.values).toEqual([
      { code: 'AAD025v001', name: 'rot/weiß' },
      { code: 'AAD038v001', name: 'schwarz/gelb' },
    ]);
  });

  it('finds classes by code prefix, name word prefix (umlauts folded) and synonym', async () => {
    const a = await admin();
    const v = version();
    await loadRelease(a, { system: 'PROFICLASS', version: v, files: proficlassFiles() });
    const search = (q: string) =>
      searchReleaseClasses(db(), { release: `PROFICLASS-${v}`, q, limit: 20 }).then((r) => r.items.map((i) => i.code));
    expect(await search('EAB00')).toEqual(['EAB004h003', 'EAB005c012', 'EAB006c006']);
    expect(await search('Straß')).toEqual(['EAB006c006']);
    // Diacritics folded: "fur" finds "für".
    expect(await search('absperrgitter fur')).toEqual(['EAB006c006']);
    expect(await search('absperrgitter band')).toEqual([]);
    expect(await search('flatter')).toEqual(['EAB005c012']);
    expect(await search('absperr')).toEqual(expect.arrayContaining(['EAB004h003', 'EAB005c012', 'EAB006c006']));
  });

  it('fails a file with a broken row with file, line and reason, and leaves the loaded release untouched', async () => {
    const a = await admin();
    const v = version();
    const first = await loadRelease(a, { system: 'PROFICLASS', version: v, files: proficlassFiles() });
    const broken = proficlassFiles({
      'Merkmale.csv': [
        'Merkmal_ID;Merkmalbezeichnung;Datentyp;Klassifikationssystem_ID',
        'AAA358f001;Farbe;alphanumerisch;pc-7.0',
        'AAA003f001;Gewicht;zahl;pc-7.0',
      ],
    });
    const second = await loadRelease(a, { system: 'PROFICLASS', version: v, files: broken, replace: true });
    expect(second.job!.state).toBe('failed');
    expect(second.job!.error).toBe(
      'Merkmale.csv line 3: Datentyp "zahl" is not one of alphanumerisch, numerisch, logisch, bereich, numerischbereich',
    );
    const releases = (await getReleases(db(), a)).items.filter((r) => r.version === v);
    expect(releases.map((r) => [r.releaseId, r.status])).toEqual([
      [first.started.releaseId, 'loaded'],
      [second.started.releaseId, 'failed'],
    ]);
    const [count] = await db().all<{ n: number }>(
      `SELECT count(*) AS n FROM release_classes WHERE release_id = ${second.started.releaseId}`,
    );
    expect(count!.n).toBe(0);
    expect(
      (await searchReleaseClasses(db(), { release: `PROFICLASS-${v}`, q: 'Absperrband', limit: 5 })).items,
    ).toHaveLength(1);
  });

  it('refuses a reference to a class the class file does not have, naming file and line', async () => {
    const a = await admin();
    const files = proficlassFiles({
      'KlassenMerkmale_rel.csv': [
        'KlasseMerkmal_Nr;Klasse_ID;Merkmal_ID;Einheit_ID;Sortier_Nr;Mussmerkmal;Klassifikationssystem_ID',
        '1;EAB005c012;AAA358f001;;1;FALSE;pc-7.0',
        '2;EZZ999c001;AAA003f001;;1;FALSE;pc-7.0',
      ],
    });
    const { job } = await loadRelease(a, { system: 'PROFICLASS', version: version(), files });
    expect(job!.error).toBe("KlassenMerkmale_rel.csv line 3: class EZZ999c001 is not in the release's class file");
  });

  it('is a no-op for a release already loaded, and replace swaps in the new load', async () => {
    const a = await admin();
    const v = version();
    const first = await loadRelease(a, { system: 'PROFICLASS', version: v, files: proficlassFiles() });
    const again = await loadRelease(a, { system: 'PROFICLASS', version: v, files: proficlassFiles() });
    expect(again.started).toEqual({ releaseId: first.started.releaseId, status: 'loaded', jobId: null });
    const replaced = await loadRelease(a, {
      system: 'PROFICLASS',
      version: v,
      files: proficlassFiles(),
      replace: true,
    });
    expect(replaced.job!.state).toBe('succeeded');
    const items = (await getReleases(db(), a)).items.filter((r) => r.version === v);
    expect(items.map((r) => [r.releaseId, r.status])).toEqual([[replaced.started.releaseId, 'loaded']]);
    const [left] = await db().all<{ n: number }>(
      `SELECT (SELECT count(*) FROM release_class_feature_values WHERE release_id = ${first.started.releaseId})
        + (SELECT count(*) FROM release_names WHERE release_id = ${first.started.releaseId}) AS n`,
    );
    expect(left!.n).toBe(0);
  });

  it('resumes from its checkpoint after a crash mid-file and loads each row once', async () => {
    const a = await admin();
    const v = version();
    const files = await uploadRelease(a, proficlassFiles());
    const deps = releaseDeps({ batchRows: 1, sliceMs: -1 });
    const started = await startReleaseLoad(deps, operatorCaller(a), {
      system: 'PROFICLASS',
      version: v,
      files,
      replace: false,
    });
    const { runReleaseLoadSlice } = await import('../src/releases/release-load');
    // Two slices, then the worker "dies": the same job row runs again from its saved checkpoint.
    expect(await runReleaseLoadSlice(deps, await jobRow(started.jobId!))).toBe('continued');
    const stale = await jobRow(started.jobId!);
    expect(await runReleaseLoadSlice(deps, stale)).toBe('continued');
    expect(await runReleaseLoadSlice(deps, stale)).toBe('stopped');
    const job = await drive(started.jobId!, deps);
    expect(job.state).toBe('succeeded');
    expect(job.summary).toMatchObject({ classes: 4, classFeatures: 4, classFeatureValues: 2, synonyms: 2 });
  });
});

describe('who may load', () => {
  it('refuses an editor before looking at the files (a company admin: test/release-operator.test.ts)', async () => {
    const company = await makeCompany();
    const editor = await makeUser(company);
    await expect(
      startReleaseLoad(releaseDeps(), adminCaller(editor, 'editor'), {
        system: 'PROFICLASS',
        version: version(),
        files: [{ fileId: crypto.randomUUID() }],
        replace: false,
      }),
    ).rejects.toThrow('only the service operator may do this');
  });

  it('refuses a file whose header is not a file of the format', async () => {
    const a = await admin();
    const files = await uploadRelease(a, { 'other.csv': latin1(['sku;name', '1;x']) });
    await expect(
      startReleaseLoad(releaseDeps(), operatorCaller(a), {
        system: 'PROFICLASS',
        version: version(),
        files,
        replace: false,
      }),
    ).rejects.toThrow('other.csv: the header (sku;name) is not a file of PROFICLASS_CSV');
  });
});
