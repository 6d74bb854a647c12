import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { jobs } from '../../src/db/schema';
import { AppError } from '../../src/kernel/app-error';
import { failReleaseLoad, runReleaseLoadSlice, type ReleaseLoadDeps } from '../../src/releases/release-load';
import type { ReleaseFormat } from '../../src/releases/release-formats';
import { startReleaseLoad } from '../../src/releases/start-release-load';
import { db } from './factories';
import { putImportFile } from './import-fixtures';
import type { Caller } from '../../src/kernel/caller';

/** ISO-8859-1 bytes of `text` (every character below U+0100), CRLF line ends: how proficl@ss publishes. */
export function latin1(lines: string[]): Uint8Array {
  const text = `${lines.join('\r\n')}\r\n`;
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}

/**
 * A small proficl@ss release in the published single-file layout (written from the headers of
 * the real 7.0 files): two top groups, three classes, features of each type, a value list with
 * a repeated row (the real 7.0 value map repeats three), keywords as synonyms. Umlauts in Latin-1.
 */
export function proficlassFiles(overrides: Record<string, string[]> = {}): Record<string, Uint8Array> {
  const files: Record<string, string[]> = {
    'Einheiten.csv': [
      'Einheit_ID;Einheitcode;Einheitkurzbezeichnung;Einheitbezeichnung;Klassifikationssystem_ID',
      'AAA001u001;MMT;mm;Millimeter;pc-7.0',
      'AAA003u001;MMK;mm²;Quadratmillimeter;pc-7.0',
    ],
    'Klassen.csv': [
      'Klasse_ID;Parent_ID;Klassenbezeichnung;Hierarchieebene;Klassifikationssystem_ID',
      'AAA446h002;;Arbeitssicherheit, Unfallschutz;1;pc-7.0',
      'EAB004h003;AAA446h002;Absperrung;2;pc-7.0',
      'EAB005c012;EAB004h003;Absperrband;3;pc-7.0',
      'EAB006c006;EAB004h003;Absperrgitter für Straßen;3;pc-7.0',
    ],
    'Merkmale.csv': [
      'Merkmal_ID;Merkmalbezeichnung;Datentyp;Klassifikationssystem_ID',
      'AAA358f001;Farbe;alphanumerisch;pc-7.0',
      'AAA003f001;Gewicht;numerisch;pc-7.0',
      'AAA031f001;Höhe;numerisch;pc-7.0',
      'AAA100f001;Reflektierend;logisch;pc-7.0',
    ],
    'Werte.csv': [
      'Wert_ID;Wertbezeichnung;Klassifikationssystem_ID',
      'AAD025v001;rot/weiß;pc-7.0',
      'AAD038v001;schwarz/gelb;pc-7.0',
    ],
    'Schlagworte.csv': [
      'Schlagwort_ID;Schlagwortbezeichnung;Klassifikationssystem_ID',
      'EAJ008s001;Flatterband;pc-7.0',
      'EAJ009s001;Bauzaun;pc-7.0',
    ],
    'KlassenSchlagworte_rel.csv': [
      'KlasseSchlagwort_Nr;Klasse_ID;Schlagwort_ID;Klassifikationssystem_ID',
      '1;EAB005c012;EAJ008s001;pc-7.0',
      '2;EAB006c006;EAJ009s001;pc-7.0',
    ],
    'KlassenMerkmale_rel.csv': [
      'KlasseMerkmal_Nr;Klasse_ID;Merkmal_ID;Einheit_ID;Sortier_Nr;Mussmerkmal;Klassifikationssystem_ID',
      '1;EAB005c012;AAA358f001;;1;FALSE;pc-7.0',
      '2;EAB006c006;AAA003f001;;1;FALSE;pc-7.0',
      '3;EAB006c006;AAA031f001;AAA001u001;2;TRUE;pc-7.0',
      '4;EAB006c006;AAA100f001;;3;FALSE;pc-7.0',
    ],
    'KlassenMerkmaleWerte_rel.csv': [
      'KlasseMerkmalWert_Nr;KlasseMerkmal_Nr;Wert_ID;Sortier_Nr_Wert_de;Klassifikationssystem_ID',
      '1;1;AAD025v001;1;pc-7.0',
      '2;1;AAD038v001;2;pc-7.0',
      '3;1;AAD025v001;3;pc-7.0',
    ],
    ...overrides,
  };
  return Object.fromEntries(Object.entries(files).map(([name, lines]) => [name, latin1(lines)]));
}

/** A small ETIM release in ETIM's CSV layout (UTF-8), English, plus German class and feature names. */
export function etimFiles(): Record<string, { content: string; language?: string }> {
  const csv = (lines: string[]) => `${lines.join('\n')}\n`;
  return {
    'ETIMUNIT.csv': { content: csv(['UNITOFMEASID;UNITDESC', 'EU570448;mm', 'EU570126;V']) },
    'ETIMARTCLASS.csv': {
      content: csv([
        'ARTCLASSID;ARTCLASSDESC;ARTCLASSVERSION;ARTGROUPID',
        'EC000042;Miniature circuit breaker (MCB);3;EG000020',
        'EC000905;Cable tie;2;EG000017',
        'EC001744;Socket outlet;4;EG000004',
      ]),
    },
    'ETIMARTCLASS_de.csv': {
      language: 'de',
      content: csv(['ARTCLASSID;ARTCLASSDESC', 'EC000042;Leitungsschutzschalter', 'EC000905;Kabelbinder']),
    },
    'ETIMSYNONYM.csv': { content: csv(['ARTCLASSID;CLASSSYNONYM', 'EC000042;MCB', 'EC000905;zip tie']) },
    'ETIMFEATURE.csv': {
      content: csv([
        'FEATUREID;FEATUREDESC',
        'EF000008;Width',
        'EF000007;Colour',
        'EF000139;Halogen free',
        'EF000001;Ambient temperature',
      ]),
    },
    'ETIMVALUE.csv': { content: csv(['VALUEID;VALUEDESC', 'EV000080;White', 'EV000082;Black']) },
    'ETIMARTCLASSFEATUREMAP.csv': {
      content: csv([
        'ARTCLASSFEATURENR;ARTCLASSID;FEATUREID;FEATURETYPE;UNITOFMEASID;SORTNR',
        '101;EC000905;EF000008;N;EU570448;1',
        '102;EC000905;EF000007;A;;2',
        '103;EC000905;EF000139;L;;3',
        '104;EC000905;EF000001;R;;4',
      ]),
    },
    'ETIMARTCLASSFEATUREVALUEMAP.csv': {
      content: csv(['ARTCLASSFEATUREVALUENR;ARTCLASSFEATURENR;VALUEID;SORTNR', '1;102;EV000080;1', '2;102;EV000082;2']),
    },
  };
}

/** A small eCl@ss release in the basic CSV layout eCl@ss documents (UTF-8, `;`), English. */
export function eclassFiles(): Record<string, { content: string }> {
  const csv = (lines: string[]) => ({ content: `${lines.join('\r\n')}\r\n` });
  const cc = (coded: string, id: string, name: string, level: number) =>
    `0173-1;${id}001;${id};001;2023-01-01;01;${coded};${name};def;en;US;;;${level};0;0;;0173-1#01-${id}#001`;
  const pr = (id: string, name: string, type: string, unit: string) =>
    `0173-1;${id}001;${id};001;2023-01-01;01;${name};;def;;;;;${unit};en;US;;DIRECT;;${type};0173-1#02-${id}#001;`;
  const va = (id: string, name: string) =>
    `0173-1;${id}001;${id};001;01;2023-01-01;${name};;;;en;US;0173-1#07-${id}#001;STRING`;
  return {
    'eClass13_0_UN_en.csv': csv([
      'PreferredName;ShortName;Definition;Source;Comment;SINotation;SIName;DINNotation;ECEName;ECECode;NISTName;IECClassification;IrdiUN;NameOfDedicatedQuantity',
      'millimetre;mm;;;;;;;millimetre;MMT;;;0173-1#05-AAA480#002;length',
    ]),
    'eClass13_0_CC_en.csv': csv([
      'Supplier;IdCC;Identifier;VersionNumber;VersionDate;RevisionNumber;CodedName;PreferredName;Definition;ISOLanguageCode;ISOCountryCode;Note;Remark;Level;MKSubclass;MKKeyword;MKBSA;IrdiCC',
      cc('27000000', 'AAA001', 'Electric engineering, automation', 1),
      cc('27140000', 'AAA002', 'Electrical installation', 2),
      cc('27141100', 'AAA003', 'Circuit breaker', 3),
      cc('27141190', 'AAA004', 'Miniature circuit breaker', 4),
    ]),
    'eClass13_0_PR_en.csv': csv([
      'Supplier;IdPR;Identifier;VersionNumber;VersionDate;RevisionNumber;PreferredName;ShortName;Definition;SourceOfDefinition;Note;Remark;PreferredSymbol;IrdiUN;ISOLanguageCode;ISOCountryCode;Category;AttributeType;DefinitionClass;DataType;IrdiPR;CurrencyAlphaCode',
      pr('BAA020', 'width', 'REAL_MEASURE', '0173-1#05-AAA480#002'),
      pr('AAO677', 'colour', 'STRING', ''),
      pr('BAD853', 'cascadable', 'BOOLEAN', ''),
    ]),
    'eClass13_0_VA_en.csv': csv([
      'Supplier;IdVA;Identifier;VersionNumber;RevisionNumber;VersionDate;PreferredName;ShortName;Definition;Reference;ISOLanguageCode;ISOCountryCode;IrdiVA;DataType',
      va('AAA017', 'grey'),
      va('AAA018', 'white'),
    ]),
    'eClass13_0_CC_PR_en.csv': csv([
      'SupplierIdCC;IdCC;ClassCodedName;SupplierIdPR;IdPR;IrdiCC;IrdiPR;PreferredNameBlockAspect',
      '0173-1;AAA004001;27141190;0173-1;BAA020001;0173-1#01-AAA004#001;0173-1#02-BAA020#001;',
      '0173-1;AAA004001;27141190;0173-1;AAO677001;0173-1#01-AAA004#001;0173-1#02-AAO677#001;',
      '0173-1;AAA004001;27141190;0173-1;BAD853001;0173-1#01-AAA004#001;0173-1#02-BAD853#001;',
    ]),
    'eClass13_0_CC_PR_VA_suggested_incl_constraint_en.csv': csv([
      'IrdiCC;IrdiPR;IrdiVA;Constraint',
      '0173-1#01-AAA004#001;0173-1#02-AAO677#001;0173-1#07-AAA017#001;',
      '0173-1#01-AAA004#001;0173-1#02-AAO677#001;0173-1#07-AAA018#001;',
    ]),
    'eClass13_0_KWSY_en.csv': csv([
      'SupplierKW/SupplierSY;Identifier;VersionNumber;IdCC/IdPR;KeywordValue/SynonymValue;Explanation;ISOLanguageCode;ISOCountryCode;TypeOfTargetSE;IrdiTarget;IrdiKW/IrdiSY;TypeOfSE',
      '0173-1;AAA004;001;AAA004001;MCB;;en;US;CC;0173-1#01-AAA004#001;0173-1#Z6-AAA100#001;SY',
      '0173-1;BAA020;001;BAA020001;breadth;;en;US;PR;0173-1#02-BAA020#001;0173-1#Z6-AAA101#001;SY',
    ]),
  };
}

export type ReleaseAdmin = { companyId: string; departmentId: string; userId: string };

export const adminCaller = (t: ReleaseAdmin, role: 'admin' | 'editor' = 'admin'): Caller => ({
  ...t,
  role,
  surface: 'web',
});

/** The service operator on the web surface, as `requireSession` builds it for a user with `users.is_operator`. */
export const operatorCaller = (t: ReleaseAdmin, role: 'admin' | 'editor' = 'admin'): Caller => ({
  ...adminCaller(t, role),
  operator: true,
});

/** Uploads the files (as Import/Upload would) and returns their StartReleaseLoad entries. */
export async function uploadRelease(
  admin: ReleaseAdmin,
  files: Record<string, Uint8Array | { content: string; language?: string }>,
) {
  const out: { fileId: string; language?: string }[] = [];
  for (const [name, file] of Object.entries(files)) {
    const content = file instanceof Uint8Array ? file : file.content;
    const fileId = await putImportFile(admin, content, name);
    out.push(file instanceof Uint8Array || !file.language ? { fileId } : { fileId, language: file.language });
  }
  return out;
}

export const releaseDeps = (overrides: Partial<ReleaseLoadDeps> = {}): ReleaseLoadDeps => ({
  db: db(),
  files: env.FILES,
  queue: env.EXPORT_HOLD_QUEUE,
  sliceMs: 60_000,
  ...overrides,
});

export const jobRow = async (jobId: string) => (await db().query.jobs.findFirst({ where: eq(jobs.id, jobId) }))!;

/** Runs the job's slices until it ends, as the queue consumer would (a known failure fails the job). */
export async function drive(jobId: string, deps = releaseDeps()) {
  for (let i = 0; i < 200; i++) {
    const job = await jobRow(jobId);
    if (job.state !== 'queued' && job.state !== 'running') return job;
    try {
      if ((await runReleaseLoadSlice(deps, job)) !== 'continued') return jobRow(jobId);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await failReleaseLoad(deps, job, err.message);
      return jobRow(jobId);
    }
  }
  throw new Error('the load did not end');
}

/** Loads a release start to end as the service operator (files uploaded by `admin`'s company); returns the job row and the release id. */
export async function loadRelease(
  admin: ReleaseAdmin,
  input: {
    system: string;
    version: string;
    format?: ReleaseFormat;
    files: Record<string, Uint8Array | { content: string; language?: string }>;
    replace?: boolean;
    encoding?: 'utf-8' | 'iso-8859-1' | 'windows-1252';
  },
  deps = releaseDeps(),
) {
  const files = await uploadRelease(admin, input.files);
  const started = await startReleaseLoad(deps, operatorCaller(admin), {
    system: input.system,
    version: input.version,
    format: input.format,
    files,
    replace: input.replace ?? false,
    encoding: input.encoding,
  });
  const job = started.jobId ? await drive(started.jobId, deps) : null;
  return { started, job };
}
