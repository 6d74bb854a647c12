import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { releaseNames } from '../src/db/schema';
import { db, makeSession } from './helpers/factories';
import { call, ORIGIN } from './helpers/http';
import { loadRelease, proficlassFiles } from './helpers/release-fixtures';

/**
 * The proficl@ss fixture whose class file has more than 64 KB of ASCII rows before its first
 * umlaut: sniffing its head says UTF-8, the file is Latin-1.
 */
function lateUmlautFiles() {
  const padding = Array.from(
    { length: 1500 },
    (_, i) =>
      `PA${String.fromCharCode(65 + (i % 26))}${String(Math.floor(i / 26)).padStart(3, '0')}h001;AAA446h002;Padding class ${i};2;pc-7.0`,
  );
  return proficlassFiles({
    'Klassen.csv': [
      'Klasse_ID;Parent_ID;Klassenbezeichnung;Hierarchieebene;Klassifikationssystem_ID',
      'AAA446h002;;Arbeitssicherheit, Unfallschutz;1;pc-7.0',
      ...padding,
      'EAB004h003;AAA446h002;Absperrung;2;pc-7.0',
      'EAB005c012;EAB004h003;Absperrband;3;pc-7.0',
      'EAB006c006;EAB004h003;Absperrgitter für Straßen;3;pc-7.0',
    ],
  });
}

describe('the encoding of a release load', () => {
  it('a Latin-1 file whose first 64 KB are ASCII fails when sniffed and loads with encoding iso-8859-1', async () => {
    const admin = await makeSession({ role: 'admin' });
    const who = { companyId: admin.companyId, departmentId: admin.departmentId, userId: admin.userId };
    const files = lateUmlautFiles();
    expect(files['Klassen.csv']!.indexOf(0xfc)).toBeGreaterThan(64 * 1024);

    const sniffed = await loadRelease(who, {
      system: 'PROFICLASS',
      version: `e${crypto.randomUUID().slice(0, 8)}`,
      files,
    });
    expect(sniffed.job!.state).toBe('failed');
    expect(sniffed.job!.error).toMatch(/^Klassen\.csv: the file is not valid UTF-8 near byte \d+$/);

    const version = `e${crypto.randomUUID().slice(0, 8)}`;
    const told = await loadRelease(who, { system: 'PROFICLASS', version, files, encoding: 'iso-8859-1' });
    expect(told.job!.state, told.job!.error ?? '').toBe('succeeded');
    expect(told.job!.summary).toMatchObject({ classes: 1504 });
    const names = await db()
      .select({ name: releaseNames.name })
      .from(releaseNames)
      .where(eq(releaseNames.releaseId, told.started.releaseId));
    expect(names.map((n) => n.name)).toContain('Absperrgitter für Straßen');

    // windows-1252 reads the same bytes the same way (its extra characters are in 0x80-0x9F only).
    const cp = await loadRelease(who, {
      system: 'PROFICLASS',
      version: `e${crypto.randomUUID().slice(0, 8)}`,
      files,
      encoding: 'windows-1252',
    });
    expect(cp.job!.state, cp.job!.error ?? '').toBe('succeeded');
  });

  it('answers 400 naming the field for another encoding, before anything is queued', async () => {
    const admin = await makeSession({ role: 'admin', operator: true });
    const res = await call('POST', '/api/Classification/StartReleaseLoad', {
      cookie: admin.cookie,
      headers: { Origin: ORIGIN },
      body: { system: 'PROFICLASS', version: '7.0', files: [{ fileId: crypto.randomUUID() }], encoding: 'utf-16' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toContain('encoding');
  });
});
