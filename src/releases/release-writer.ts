import { and, eq, isNotNull } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { BatchStatement, Database } from '../db/client';
import { jsonInsert } from '../db/json-rows';
import {
  releaseClasses,
  releaseClassFeatures,
  releaseClassFeatureValues,
  releaseFeatures,
  releaseNames,
  releaseSynonyms,
  releaseUnits,
  releaseValues,
} from '../db/schema';
import type { Known, ParsedRows, Role } from './release-rows';

/**
 * Rows parsed from a file, gathered until a batch is full, then written in one transaction
 * with the checkpoint (release-load.ts). Inserts ignore a row whose key exists: a file that
 * repeats a row (the proficl@ss 7.0 value map does, three times) keeps the first, and a batch
 * written again after a crash writes nothing twice.
 */
export class RowBuffer {
  rows: Required<ParsedRows> = emptyRows();
  count = 0;

  add(parsed: ParsedRows): void {
    for (const [key, list] of Object.entries(parsed) as [keyof ParsedRows, unknown[]][])
      (this.rows[key] as unknown[]).push(...list);
    this.count++;
  }

  statements(db: Database, releaseId: number): BatchStatement[] {
    const r = this.rows;
    const withId = <T extends object>(list: T[]) => list.map((row) => ({ releaseId, ...row }));
    const ignore = { orIgnore: true };
    return [
      ...jsonInsert(db, releaseUnits, withId(r.units), ignore),
      ...jsonInsert(db, releaseClasses, withId(r.classes), ignore),
      ...jsonInsert(db, releaseFeatures, withId(r.features), ignore),
      ...jsonInsert(db, releaseValues, withId(r.values), ignore),
      ...jsonInsert(db, releaseNames, withId(r.names), ignore),
      ...jsonInsert(db, releaseSynonyms, withId(r.synonyms), ignore),
      ...jsonInsert(db, releaseClassFeatures, withId(r.classFeatures), ignore),
      ...jsonInsert(db, releaseClassFeatureValues, withId(r.classFeatureValues), ignore),
    ];
  }

  clear(): void {
    this.rows = emptyRows();
    this.count = 0;
  }
}

function emptyRows(): Required<ParsedRows> {
  return {
    units: [],
    classes: [],
    features: [],
    values: [],
    names: [],
    synonyms: [],
    classFeatures: [],
    classFeatureValues: [],
  };
}

/** Which earlier codes a file of each role references (what the lookups must hold). */
const NEEDS: Record<Role, readonly ('C' | 'F' | 'V' | 'U' | 'K' | 'G' | 'CF' | 'CI')[]> = {
  featureSystem: ['F', 'V', 'U', 'G'],
  units: [],
  classes: [],
  features: [],
  values: [],
  keywords: [],
  synonyms: ['C', 'K', 'CI'],
  classFeatures: ['C', 'F', 'U'],
  classFeatureValues: ['CF', 'V', 'CI', 'F'],
};

const CODE_TABLES = { C: releaseClasses, F: releaseFeatures, V: releaseValues, U: releaseUnits } as const;

/**
 * The codes of the release being loaded that a file of `role` references, read from the
 * database (earlier files were written by earlier slices, maybe before a crash) and kept
 * current with the rows this slice adds. ETIM size: ~75,000 codes, a few MB.
 */
export async function loadKnown(
  db: Database,
  releaseId: number,
  role: Role,
): Promise<Known & { note(p: ParsedRows): void }> {
  const sets = {
    C: new Set<string>(),
    F: new Set<string>(),
    V: new Set<string>(),
    U: new Set<string>(),
    G: new Set<string>(),
  };
  const keywords = new Map<string, string>();
  const pairs = new Map<number, readonly [string, string]>();
  const irdis = new Map<string, string>();
  for (const need of NEEDS[role]) {
    if (need === 'K' || need === 'G') {
      const rows = await db
        .select({ code: releaseNames.code, name: releaseNames.name })
        .from(releaseNames)
        .where(and(eq(releaseNames.releaseId, releaseId), eq(releaseNames.kind, need)));
      for (const row of rows)
        if (need === 'K') keywords.set(row.code, row.name);
        else sets.G.add(row.code);
    } else if (need === 'CI') {
      const rows = await db
        .select({ code: releaseClasses.code, irdi: releaseClasses.irdi })
        .from(releaseClasses)
        .where(and(eq(releaseClasses.releaseId, releaseId), isNotNull(releaseClasses.irdi)));
      for (const row of rows) irdis.set(row.irdi!, row.code);
    } else if (need === 'CF') {
      const rows = await db
        .select({
          ref: releaseClassFeatures.ref,
          c: releaseClassFeatures.classCode,
          f: releaseClassFeatures.featureCode,
        })
        .from(releaseClassFeatures)
        .where(eq(releaseClassFeatures.releaseId, releaseId));
      for (const row of rows) if (row.ref !== null) pairs.set(row.ref, [row.c, row.f]);
    } else {
      const table = CODE_TABLES[need];
      const rows = await db
        .select({ code: table.code as SQLiteColumn })
        .from(table)
        .where(eq(table.releaseId, releaseId));
      for (const row of rows) sets[need].add(row.code as string);
    }
  }
  return {
    has: (kind, code) => sets[kind].has(code),
    keyword: (code) => keywords.get(code),
    classFeature: (ref) => pairs.get(ref),
    classOfIrdi: (irdi) => irdis.get(irdi),
    note(p) {
      // A file that defines and references in one (BMEcat) references what it defined earlier.
      for (const row of p.features ?? []) sets.F.add(row.code);
      for (const row of p.values ?? []) sets.V.add(row.code);
      for (const row of p.units ?? []) sets.U.add(row.code);
      for (const row of p.names ?? []) if (row.kind === 'G') sets.G.add(row.code);
      for (const row of p.classFeatures ?? [])
        if (row.ref !== null) pairs.set(row.ref, [row.classCode, row.featureCode]);
    },
  };
}
