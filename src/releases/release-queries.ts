import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { jsonList } from '../db/json-rows';
import { classificationReleases, releaseClasses, releaseNames, releaseProductCounts } from '../db/schema';
import { AppError, badRequest } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { RELEASE_NAME, RELEASE_NAME_RULE, splitRelease } from '../kernel/release-name';

export const ReleaseOut = z.object({
  releaseId: z.number().int(),
  /** `SYSTEM-version`, e.g. ETIM-9.0: how a classification names its release. */
  release: z.string(),
  system: z.string(),
  version: z.string(),
  status: z.enum(['loading', 'loaded', 'replaced', 'failed']),
  format: z.string(),
  languages: z.array(z.string()),
  counts: z.record(z.string(), z.number().int()),
  jobId: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  loadedAt: z.string().nullable(),
  /** How many of the caller's company's products have a class of a release of this name (migration 0042's counter). */
  products: z.number().int(),
});
export const ReleasesOut = z.object({ items: z.array(ReleaseOut) });

/** `ETIM-9.0`, `PROFICLASS-7.0`, `ETIM-DYNAMIC-2025-06`: the system is the part before the first hyphen. */
export const ReleaseName = z.string().regex(RELEASE_NAME, RELEASE_NAME_RULE);
export const Language = z
  .string()
  .regex(/^[a-zA-Z]{2,3}([-_][a-zA-Z0-9]{2,3})?$/, 'lang is a language tag, e.g. de or en-GB');

type ReleaseRow = typeof classificationReleases.$inferSelect;

const releaseOut = (r: ReleaseRow, products: number | null): z.infer<typeof ReleaseOut> => ({
  releaseId: r.id,
  release: `${r.system}-${r.version}`,
  system: r.system,
  version: r.version,
  status: r.status,
  format: r.format,
  languages: r.languages ?? [],
  counts: r.counts ?? {},
  jobId: r.jobId,
  error: r.error,
  createdAt: r.createdAt,
  loadedAt: r.loadedAt,
  products: Math.max(0, products ?? 0),
});

/**
 * The releases: loaded, loading and failed ones (replaced ones are history and purged). A
 * handful per system, so one list without paging. Each with how many of the caller's company's
 * products are classified on a release of its name: one primary-key lookup per release in the
 * counter table the classification writes keep (migration 0042), never a scan of classifications.
 */
export async function getReleases(db: Database, caller: Pick<Caller, 'companyId'>) {
  const rows = await releaseListQuery(db, caller);
  return { items: rows.map((r) => releaseOut(r.release, r.products)) };
}

/** The release list's one statement (exported so a test can read its query plan). */
export function releaseListQuery(db: Database, caller: Pick<Caller, 'companyId'>) {
  return db
    .select({ release: classificationReleases, products: releaseProductCounts.products })
    .from(classificationReleases)
    .leftJoin(
      releaseProductCounts,
      and(
        eq(releaseProductCounts.companyId, caller.companyId),
        eq(
          releaseProductCounts.release,
          sql`${classificationReleases.system} || '-' || ${classificationReleases.version}`,
        ),
      ),
    )
    .where(ne(classificationReleases.status, 'replaced'))
    .orderBy(asc(classificationReleases.system), asc(classificationReleases.version), asc(classificationReleases.id));
}

export { splitRelease };

/** The loaded release of that name, else 404 saying it is not loaded. */
export async function findLoadedRelease(db: Database, release: string): Promise<ReleaseRow> {
  const { system, version } = splitRelease(release);
  const row = await db.query.classificationReleases.findFirst({
    where: and(
      eq(classificationReleases.system, system),
      eq(classificationReleases.version, version),
      eq(classificationReleases.status, 'loaded'),
    ),
  });
  if (!row) throw new AppError('not_found', `release ${release} is not loaded`);
  return row;
}

/** The name in `lang`, else in the same language of another region, else the release's first language. */
export function pickName(names: { lang: string; name: string }[], lang: string | undefined, languages: string[]) {
  if (names.length === 0) return null;
  const wanted = lang ? [lang, lang.split('-')[0]!] : [];
  for (const w of [...wanted, ...languages]) {
    const hit = names.find((n) => n.lang === w) ?? names.find((n) => n.lang.split('-')[0] === w.split('-')[0]);
    if (hit) return hit;
  }
  return names[0]!;
}

/**
 * Names of one kind for many codes (every code of the kind when `codes` is left out: a release's
 * few dozen groups), grouped by code in code order (one query).
 */
export async function namesOf(db: Database, releaseId: number, kind: 'C' | 'F' | 'V' | 'U' | 'G', codes?: string[]) {
  const out = new Map<string, { lang: string; name: string }[]>();
  if (codes?.length === 0) return out;
  const rows = await db
    .select({ code: releaseNames.code, lang: releaseNames.lang, name: releaseNames.name })
    .from(releaseNames)
    .where(
      and(
        eq(releaseNames.releaseId, releaseId),
        eq(releaseNames.kind, kind),
        codes ? inArray(releaseNames.code, jsonList(codes)) : undefined,
      ),
    )
    .orderBy(asc(releaseNames.code), asc(releaseNames.lang));
  for (const row of rows) {
    const list = out.get(row.code) ?? [];
    list.push({ lang: row.lang, name: row.name });
    out.set(row.code, list);
  }
  return out;
}

/** Class rows (hierarchy and lifecycle) by code. */
export async function classesOf(db: Database, releaseId: number, codes: string[]) {
  if (codes.length === 0) return new Map<string, typeof releaseClasses.$inferSelect>();
  const rows = await db
    .select()
    .from(releaseClasses)
    .where(and(eq(releaseClasses.releaseId, releaseId), inArray(releaseClasses.code, jsonList(codes))));
  return new Map(rows.map((r) => [r.code, r]));
}

/** FTS5 query text of the words of `q`, each a prefix: `"absperr"* "band"*` (quotes doubled). */
export function ftsPrefixQuery(q: string): string | null {
  const words = q
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, 8);
  if (words.length === 0) return null;
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
}

export function assertQuery(q: string): string {
  const trimmed = q.trim();
  if (trimmed.length === 0) throw badRequest('q is empty');
  return trimmed;
}
