import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { findCatalog } from '../db/scope';
import type { JobMessage } from '../env';
import { enqueueJob, type JobRow } from '../jobs/jobs';
import { badRequest } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { groupOfRelease } from '../kernel/release-name';
import { type LinkPageDeps, LINK_PAGE, reportOf, runLinkPages } from './link-pages';
import { ReleaseName } from './release-queries';
import { planUpgrade, upgradeClass, upgradeFeature } from './upgrade-plan';
import { readUpgradeRefs } from './upgrade-refs';
import { groupOfLoadedRelease } from './verify-job';

export const ReleaseUpgradeDto = z.strictObject({
  /** The release the classifications are on now, e.g. ETIM-8.0. */
  from: ReleaseName,
  /** The loaded release to move them to, e.g. ETIM-9.0 (same system). */
  to: ReleaseName,
  /** Only the products of this catalog; left out: every classification of the company. */
  catalogId: z.uuid().optional(),
});
type UpgradeInput = z.infer<typeof ReleaseUpgradeDto>;

export const ReleaseUpgradePlanOut = z.object({
  from: z.string(),
  to: z.string(),
  /** Classifications on `from` (in the catalog when given). */
  classifications: z.number().int(),
  /** Of those, the ones whose class has a place in `to` (the rest stay on `from`). */
  moving: z.number().int(),
  /** What changes by itself (successor classes, features, values), with how many classifications. */
  automatic: z.array(z.object({ line: z.string(), count: z.number().int() })),
  /** What needs a person: classes without a place, removed features, unit changes, refused values. */
  review: z.array(z.object({ line: z.string(), count: z.number().int() })),
});

/** The company's classifications on release `from` (optionally of one catalog's products). */
const onRelease = (companyId: string, input: UpgradeInput): SQL =>
  sql`FROM classification_link_classes c JOIN classification_links l ON l.id = c.link_id
    WHERE c."release" = ${input.from} AND l.company_id = ${companyId}${
      input.catalogId
        ? sql` AND l.element_id IN (SELECT id FROM products WHERE catalog_id = ${input.catalogId} AND company_id = ${companyId})`
        : sql``
    }`;

/** Both releases loaded, of one group, not the same; the catalog the company's. */
async function checkUpgrade(db: Database, caller: Caller, input: UpgradeInput) {
  const group = await groupOfLoadedRelease(db, 'from', input.from);
  if ((await groupOfLoadedRelease(db, 'to', input.to)) !== group)
    throw badRequest(`to: ${input.to} is not a release of the same system as ${input.from}`);
  if (input.from === input.to) throw badRequest('to: the classifications are on that release already');
  if (input.catalogId) await findCatalog(db, caller, input.catalogId);
  return group;
}

/** Stored value rows grouped per class, feature and value: what the dry run decides once for many classifications. */
const MAX_GROUPS = 20_000;

/**
 * The dry run of an upgrade (docs/classification-releases.md, "Upgrading"): per class, feature
 * and value in use, what the move does, decided by the job's own rules (upgrade-plan.ts) over
 * grouped rows, so it reads each distinct code once however many products carry it. Writes
 * nothing. Counts are classifications (feature lines: values of that class and feature).
 */
export async function planReleaseUpgrade(db: Database, caller: Caller, input: UpgradeInput) {
  const group = await checkUpgrade(db, caller, input);
  const classes = await db.all<{ code: string; n: number }>(
    sql`SELECT c.code AS code, count(*) AS n ${onRelease(caller.companyId, input)} GROUP BY c.code`,
  );
  const values = await db.all<{ cls: string; code: string; value: string; unit: string | null; n: number }>(sql`
    SELECT c.code AS cls, f.code AS code, f.value AS value, f.unit AS unit, count(*) AS n
    FROM (SELECT c.link_id, c."group", c.code ${onRelease(caller.companyId, input)}) c
      JOIN classification_link_features f ON f.link_id = c.link_id AND f."group" = c."group"
    GROUP BY c.code, f.code, f.value LIMIT ${MAX_GROUPS}`);
  const u = await readUpgradeRefs(db, input.from, input.to, {
    classCodes: classes.map((c) => c.code),
    featureCodes: values.map((v) => v.code),
    valueCodes: values.map((v) => v.value),
  });
  const automatic: Record<string, number> = {};
  const review: Record<string, number> = {};
  const add = (lines: Record<string, number>, line: string | null, n: number) => {
    if (line) lines[line] = (lines[line] ?? 0) + n;
  };
  let moving = 0;
  for (const c of classes) {
    const move = upgradeClass(u, c.code);
    add(automatic, move.automatic, c.n);
    add(review, move.review, c.n);
    if (move.target) moving += c.n;
  }
  for (const v of values) {
    const target = u.classTarget.get(v.cls);
    if (!target) continue;
    const moved = upgradeFeature(u, v.cls, target.code, group, v);
    for (const line of moved.automatic) add(automatic, line, v.n);
    add(review, moved.review, v.n);
  }
  return {
    from: input.from,
    to: input.to,
    classifications: classes.reduce((sum, c) => sum + c.n, 0),
    moving,
    ...reportOf({ automatic, review }),
  };
}

/** Queues the upgrade job (checked as the dry run is; the job re-decides per page with fresh data). */
export async function startReleaseUpgrade(
  deps: { db: Database; queue: Queue<JobMessage> },
  caller: Caller,
  input: UpgradeInput,
) {
  await checkUpgrade(deps.db, caller, input);
  const [counted] = await deps.db.all<{ total: number }>(
    sql`SELECT count(*) AS total ${onRelease(caller.companyId, input)}`,
  );
  return enqueueJob(deps, caller, { kind: 'releaseUpgrade', params: { ...input }, total: counted?.total ?? 0 });
}

/**
 * One slice of the upgrade: pages of classifications on `from`, each moved by planUpgrade and
 * written with its history entry (class, release and feature paths) and fingerprint, all or
 * nothing per page (link-pages.ts). A classification that stays is passed over (reported).
 */
export function runUpgradeSlice(deps: LinkPageDeps, job: JobRow) {
  const input = job.params as UpgradeInput;
  return runLinkPages(deps, job, {
    releases: [input.from, input.to],
    countKeys: ['moved', 'stayed'],
    page: (db, caller, after) =>
      db.all<{ id: number; linkId: string }>(sql`SELECT c.link_id AS id, l.link_id AS linkId
        ${onRelease(caller.companyId, input)} AND c.link_id > ${after} ORDER BY c.link_id LIMIT ${LINK_PAGE}`),
    planPage: async (db, contexts) => {
      const current = contexts.flatMap((ctx) => ctx.current);
      const u = await readUpgradeRefs(db, input.from, input.to, {
        classCodes: current.flatMap((c) => c.classes.filter((k) => k.release === input.from).map((k) => k.code)),
        featureCodes: current.flatMap((c) => c.features.map((f) => f.code)),
        valueCodes: current.flatMap((c) => c.features.map((f) => f.value)),
      });
      return contexts.map((ctx) => {
        const plan = planUpgrade(u, ctx, groupOfRelease(input.from)!);
        return { ...plan, counts: { moved: plan.next ? 1 : 0, stayed: plan.next ? 0 : 1 } };
      });
    },
  });
}
