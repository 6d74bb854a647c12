import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import type { JobMessage } from '../env';
import { enqueueJob, type JobRow } from '../jobs/jobs';
import { AppError, badRequest } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import type { ClassificationGroup } from '../kernel/classification-groups';
import { groupOfRelease } from '../kernel/release-name';
import { type LinkPageDeps, LINK_PAGE, runLinkPages } from './link-pages';
import { findLoadedRelease, ReleaseName } from './release-queries';
import { planVerify } from './verify-plan';

export const StartVerifyCodesDto = z.strictObject({
  /** The loaded release to verify against, e.g. ETIM-9.0: the kept classes whose system names it. */
  release: ReleaseName,
});

/** The company's kept (unverified) classes of a group, walked by link through migration 0020's partial index. */
const keptClasses = (companyId: string, group: ClassificationGroup) =>
  sql`FROM classification_link_classes c JOIN classification_links l ON l.id = c.link_id
    WHERE c.unverified = 1 AND c."group" = ${group} AND l.company_id = ${companyId}`;

/**
 * The company's feature values kept as text under a class already of `release` (a tolerant
 * import against the loaded release kept a value it refused), walked by link through migration
 * 0029's partial index.
 */
const keptValues = (companyId: string, group: ClassificationGroup, release: string) =>
  sql`FROM classification_link_features f
    JOIN classification_link_classes c ON c.link_id = f.link_id AND c."group" = f."group"
    JOIN classification_links l ON l.id = f.link_id
    WHERE f.unverified = 1 AND f."group" = ${group} AND c.unverified = 0 AND c.release = ${release}
      AND l.company_id = ${companyId}`;

/** How many classifications of a company the verification against `release` walks. */
export async function countToVerify(db: Database, companyId: string, release: string) {
  const group = groupOfRelease(release)!;
  const [counted] = await db.all<{ total: number }>(
    sql`SELECT (SELECT count(*) ${keptClasses(companyId, group)})
      + (SELECT count(DISTINCT f.link_id) ${keptValues(companyId, group, release)}) AS total`,
  );
  return counted?.total ?? 0;
}

/** A loaded release of a classification group, else 400 naming the field. */
export async function groupOfLoadedRelease(db: Database, field: string, release: string) {
  const group = groupOfRelease(release);
  if (!group) throw badRequest(`${field}: ${release} is not an ETIM, ECLASS or PROFICLASS release`);
  try {
    await findLoadedRelease(db, release);
  } catch (err) {
    if (err instanceof AppError && err.code === 'not_found') throw badRequest(`${field}: ${release} is not loaded`);
    throw err;
  }
  return group;
}

/**
 * Queues the verification of a company's kept codes against a loaded release (docs/
 * classification-releases.md, "Verifying kept codes"). 400 for a release that is not loaded or
 * whose system is not a classification group's.
 */
export async function startVerifyCodes(
  deps: { db: Database; queue: Queue<JobMessage> },
  caller: Caller,
  input: z.infer<typeof StartVerifyCodesDto>,
) {
  await groupOfLoadedRelease(deps.db, 'release', input.release);
  return enqueueJob(deps, caller, {
    kind: 'releaseVerify',
    params: { release: input.release },
    total: await countToVerify(deps.db, caller.companyId, input.release),
  });
}

/**
 * One slice of the verification: pages of kept classes of the release's group and of values
 * kept as text under classes of the release, each
 * classification planned by planVerify and written with its history entry and fingerprint
 * (link-pages.ts: all or nothing per page, resumable, re-read on a concurrent edit).
 */
export function runVerifySlice(deps: LinkPageDeps, job: JobRow) {
  const release = (job.params as { release: string }).release;
  const group = groupOfRelease(release)!;
  return runLinkPages(deps, job, {
    releases: [release],
    countKeys: ['classesVerified', 'classesUnverified', 'featuresVerified', 'featuresUnverified', 'otherRelease'],
    // Kept classes and kept values, each branch read in link order from its partial index.
    page: (db, caller, after) =>
      db.all<{ id: number; linkId: string }>(sql`SELECT id, linkId FROM (
          SELECT * FROM (SELECT c.link_id AS id, l.link_id AS linkId ${keptClasses(caller.companyId, group)}
            AND c.link_id > ${after} ORDER BY c.link_id LIMIT ${LINK_PAGE})
          UNION
          SELECT * FROM (SELECT DISTINCT f.link_id AS id, l.link_id AS linkId ${keptValues(caller.companyId, group, release)}
            AND f.link_id > ${after} ORDER BY f.link_id LIMIT ${LINK_PAGE})
        ) ORDER BY id LIMIT ${LINK_PAGE}`),
    planPage: async (_db, contexts) =>
      contexts.map((ctx) => {
        const plan = planVerify(ctx, release, group);
        return {
          next: plan.next,
          review: plan.reasons,
          counts: {
            otherRelease: plan.otherRelease ? 1 : 0,
            classesVerified: plan.classVerified ? 1 : 0,
            classesUnverified: plan.classVerified || plan.otherRelease || plan.valuesOnly ? 0 : 1,
            featuresVerified: plan.featuresVerified,
            featuresUnverified: plan.featuresUnverified,
          },
        };
      }),
  });
}
