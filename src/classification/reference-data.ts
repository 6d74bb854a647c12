import { chunkForInsert, runBatch, type Database } from '../db/client';
import {
  classificationClasses,
  classificationClassFeatures,
  classificationFeatures,
  classificationFeatureValues,
} from '../db/schema';
import type { ClassificationGroup } from '../kernel/classification-groups';

/**
 * A small SAMPLE of classification reference data so that the service works out of the box.
 * Codes follow the real formats (ETIM EC/EF/EV, eCl@ss 8-digit classes) but this is not the
 * licensed data: eCl@ss and proficl@ss entries are invented and marked "(sample)"; ETIM entries
 * are a hand-made subset for electrical wholesale. A production install imports the licensed
 * releases into the same tables. Units are UN/ECE Recommendation 20 codes, as BMEcat writes them.
 */
export const SYSTEMS: Record<ClassificationGroup, string> = {
  ETIM: 'ETIM-9.0',
  ECLASS: 'ECLASS-13.0',
  PROFICLASS: 'PROFICLASS-6.0',
};

const features: {
  group: ClassificationGroup;
  code: string;
  name: string;
  type: 'A' | 'N' | 'R' | 'L';
  unit?: string;
  values?: [string, string][];
}[] = [
  { group: 'ETIM', code: 'EF000008', name: 'Rated voltage', type: 'N', unit: 'VLT' },
  { group: 'ETIM', code: 'EF000010', name: 'Number of poles', type: 'N' },
  { group: 'ETIM', code: 'EF000133', name: 'Rated current', type: 'N', unit: 'AMP' },
  {
    group: 'ETIM',
    code: 'EF000073',
    name: 'Release characteristic',
    type: 'A',
    values: [
      ['EV000040', 'B'],
      ['EV000041', 'C'],
      ['EV000042', 'D'],
      ['EV000043', 'K'],
    ],
  },
  {
    group: 'ETIM',
    code: 'EF000049',
    name: 'Mounting method',
    type: 'A',
    values: [
      ['EV000383', 'DIN rail'],
      ['EV000384', 'Surface mounted'],
      ['EV000385', 'Flush mounted'],
    ],
  },
  {
    group: 'ETIM',
    code: 'EF000007',
    name: 'Colour',
    type: 'A',
    values: [
      ['EV000080', 'White'],
      ['EV000081', 'Grey'],
      ['EV000082', 'Black'],
      ['EV000083', 'Red'],
      ['EV000084', 'Blue'],
    ],
  },
  {
    group: 'ETIM',
    code: 'EF000137',
    name: 'Degree of protection (IP)',
    type: 'A',
    values: [
      ['EV000454', 'IP20'],
      ['EV000455', 'IP44'],
      ['EV000456', 'IP65'],
      ['EV000457', 'IP67'],
    ],
  },
  { group: 'ETIM', code: 'EF000139', name: 'Halogen free', type: 'L' },
  { group: 'ETIM', code: 'EF000001', name: 'Ambient temperature', type: 'R', unit: 'CEL' },
  { group: 'ETIM', code: 'EF000003', name: 'Nominal cross section of conductor', type: 'N', unit: 'MMK' },
  { group: 'ETIM', code: 'EF000030', name: 'Length', type: 'N', unit: 'MTR' },
  { group: 'ETIM', code: 'EF000040', name: 'Lamp power', type: 'N', unit: 'WTT' },
  { group: 'ETIM', code: 'EF000048', name: 'Rated residual current', type: 'N', unit: 'MAM' },
  { group: 'ETIM', code: 'EF000004', name: 'Colour temperature', type: 'N', unit: 'KEL' },
  { group: 'ETIM', code: 'EF000005', name: 'Dimmable', type: 'L' },
  { group: 'ECLASS', code: 'AAA001', name: 'Rated voltage (sample)', type: 'N', unit: 'VLT' },
  { group: 'ECLASS', code: 'AAA002', name: 'Rated current (sample)', type: 'N', unit: 'AMP' },
  { group: 'ECLASS', code: 'AAA003', name: 'Number of poles (sample)', type: 'N' },
  { group: 'ECLASS', code: 'AAA004', name: 'Conductor cross section (sample)', type: 'N', unit: 'MMK' },
  { group: 'ECLASS', code: 'AAA005', name: 'Halogen-free (sample)', type: 'L' },
  { group: 'PROFICLASS', code: 'PRF001', name: 'Rated voltage (sample)', type: 'N', unit: 'VLT' },
  {
    group: 'PROFICLASS',
    code: 'PRF002',
    name: 'Material (sample)',
    type: 'A',
    values: [
      ['PRV001', 'Copper (sample)'],
      ['PRV002', 'Aluminium (sample)'],
    ],
  },
];

const classes: { group: ClassificationGroup; code: string; name: string; features: string[] }[] = [
  {
    group: 'ETIM',
    code: 'EC000042',
    name: 'Miniature circuit breaker (MCB)',
    features: ['EF000008', 'EF000010', 'EF000133', 'EF000073', 'EF000049', 'EF000001'],
  },
  {
    group: 'ETIM',
    code: 'EC000044',
    name: 'Residual current circuit breaker (RCCB)',
    features: ['EF000008', 'EF000010', 'EF000133', 'EF000048', 'EF000049'],
  },
  {
    group: 'ETIM',
    code: 'EC000057',
    name: 'Power cable',
    features: ['EF000003', 'EF000010', 'EF000007', 'EF000139', 'EF000030', 'EF000008'],
  },
  {
    group: 'ETIM',
    code: 'EC000125',
    name: 'LED lamp',
    features: ['EF000008', 'EF000040', 'EF000004', 'EF000005', 'EF000137'],
  },
  {
    group: 'ETIM',
    code: 'EC001744',
    name: 'Socket outlet',
    features: ['EF000007', 'EF000137', 'EF000049', 'EF000133'],
  },
  {
    group: 'ETIM',
    code: 'EC000029',
    name: 'Installation switch',
    features: ['EF000007', 'EF000137', 'EF000049', 'EF000010'],
  },
  { group: 'ECLASS', code: '27141190', name: 'Circuit breaker (sample)', features: ['AAA001', 'AAA002', 'AAA003'] },
  { group: 'ECLASS', code: '27060190', name: 'Power cable (sample)', features: ['AAA001', 'AAA004', 'AAA005'] },
  {
    group: 'PROFICLASS',
    code: 'PC100100',
    name: 'Electrical installation material (sample)',
    features: ['PRF001', 'PRF002'],
  },
];

/** Inserts the sample reference data; re-running changes nothing. */
export async function seedReferenceData(db: Database): Promise<void> {
  const featureRows = features.map(({ group, code, name, type, unit }) => ({
    group,
    code,
    name,
    type,
    unit: unit ?? null,
  }));
  const valueRows = features.flatMap((f) =>
    (f.values ?? []).map(([code, name]) => ({ group: f.group, featureCode: f.code, code, name })),
  );
  const classRows = classes.map(({ group, code, name }) => ({ group, code, name, system: SYSTEMS[group] }));
  const linkRows = classes.flatMap((c) =>
    c.features.map((featureCode, sortOrder) => ({ group: c.group, classCode: c.code, featureCode, sortOrder })),
  );
  await runBatch(db, [
    ...chunkForInsert(featureRows, 5).map((rows) =>
      db.insert(classificationFeatures).values(rows).onConflictDoNothing(),
    ),
    ...chunkForInsert(valueRows, 4).map((rows) =>
      db.insert(classificationFeatureValues).values(rows).onConflictDoNothing(),
    ),
    ...chunkForInsert(classRows, 4).map((rows) => db.insert(classificationClasses).values(rows).onConflictDoNothing()),
    ...chunkForInsert(linkRows, 4).map((rows) =>
      db.insert(classificationClassFeatures).values(rows).onConflictDoNothing(),
    ),
  ]);
}
