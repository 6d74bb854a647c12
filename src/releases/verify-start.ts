import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { JobMessage } from '../env';
import { enqueueJob } from '../jobs/jobs';
import { groupOfRelease, releaseOfSystem } from '../kernel/release-name';
import { countToVerify } from './verify-job';
import { ownCell, type ReleaseCells } from './release-cells';

/**
 * Companies whose verification one release load starts at most: each is a job of its own, so a
 * release arriving for many companies never queues an unbounded burst; the rest start theirs
 * with StartVerifyCodes (the load's report says how many were left).
 */
export const MAX_AUTO_VERIFY = 200;

/**
 * After a release load finishes (docs/classification-releases.md, "Verifying kept codes"):
 * queues the verification of `release` for every company holding codes kept unverified whose
 * system names that release, or values kept as text under classes of it, one `releaseVerify`
 * job per company (started in the name of its first administrator), unless one is already
 * queued or running. Returns how many were queued and how many companies were left over.
 */
export async function startVerifyAfterLoad(
  deps: { db: Database; queue: Queue<JobMessage>; directory?: Database },
  release: string,
) {
  const group = groupOfRelease(release);
  if (!group) return { queued: 0, left: 0 };
  // Kept systems are spelled many ways (ETIM 9.0, ETIM-9): read per company and system, decided by releaseOfSystem.
  const rows = await deps.db.all<{ companyId: string; system: string }>(sql`
    SELECT l.company_id AS companyId, c.system AS system FROM classification_link_classes c
      JOIN classification_links l ON l.id = c.link_id
      WHERE c.unverified = 1 AND c."group" = ${group} GROUP BY l.company_id, c.system
    UNION
    SELECT DISTINCT l.company_id, c.release FROM classification_link_features f
      JOIN classification_link_classes c ON c.link_id = f.link_id AND c."group" = f."group"
      JOIN classification_links l ON l.id = f.link_id
      WHERE f.unverified = 1 AND c.unverified = 0 AND c.release = ${release}`);
  const companies = [...new Set(rows.filter((r) => releaseOfSystem(r.system) === release).map((r) => r.companyId))];
  const chosen = companies.slice(0, MAX_AUTO_VERIFY);
  if (chosen.length === 0) return { queued: 0, left: 0 };
  let queued = 0;
  for (const a of await idleAdmins(deps, chosen, 'releaseVerify', release)) {
    await enqueueJob(deps, a, {
      kind: 'releaseVerify',
      params: { release, automatic: true },
      total: await countToVerify(deps.db, a.companyId, release),
    });
    queued++;
  }
  return { queued, left: companies.length - chosen.length };
}

/**
 * After a release load finishes (docs/completeness.md, "Scores kept current"): a channel rule
 * naming `release` (the share of a class's features it marks, its value ranges) reads the
 * loaded release, which this load put in place or replaced. Every company with such a rule gets
 * its scores recomputed in every channel: one `completeness` job per company (in the name of
 * its first administrator) unless one for this release is already queued or running.
 */
export async function startRescoreAfterLoad(
  deps: { db: Database; queue: Queue<JobMessage>; directory?: Database },
  release: string,
) {
  const rows = await deps.db.all<{ companyId: string }>(
    sql`SELECT DISTINCT company_id AS companyId FROM channel_rules WHERE release = ${release} ORDER BY company_id`,
  );
  const companies = rows.map((r) => r.companyId);
  const chosen = companies.slice(0, MAX_AUTO_VERIFY);
  let queued = 0;
  for (const a of await idleAdmins(deps, chosen, 'completeness', release)) {
    await enqueueJob(deps, a, { kind: 'completeness', params: { everyChannel: true, release } });
    queued++;
  }
  return { queued, left: companies.length - chosen.length };
}

/**
 * The first administrator (and their default department) of each of these companies that has
 * no job of `kind` for `release` queued or running: the one a job started after a load runs as.
 */
async function idleAdmins(
  deps: { db: Database; directory?: Database },
  companies: string[],
  kind: string,
  release: string,
) {
  if (companies.length === 0) return [];
  const chosen = JSON.stringify(companies);
  // Memberships are in the directory (a further cell has none); the jobs are in the cell.
  const admins = await (deps.directory ?? deps.db).all<{ companyId: string; userId: string; departmentId: string }>(sql`
    SELECT j.value AS companyId,
      (SELECT m.user_id FROM memberships m WHERE m.company_id = j.value AND m.role = 'admin'
        ORDER BY m.created_at, m.user_id LIMIT 1) AS userId,
      (SELECT m.default_department_id FROM memberships m WHERE m.company_id = j.value AND m.role = 'admin'
        ORDER BY m.created_at, m.user_id LIMIT 1) AS departmentId
    FROM json_each(${chosen}) j`);
  const busy = await deps.db.all<{ companyId: string }>(sql`
    SELECT DISTINCT x.company_id AS companyId FROM jobs x
    WHERE x.company_id IN (SELECT value FROM json_each(${chosen})) AND x.kind = ${kind}
      AND x.state IN ('queued', 'running') AND json_extract(x.params, '$.release') = ${release}`);
  const running = new Set(busy.map((b) => b.companyId));
  return admins.filter((a) => !running.has(a.companyId) && a.userId);
}

/**
 * After a load that wrote every cell: the verification of each cell's companies, queued in that
 * cell (its job row and message name the cell), their administrators read in the directory.
 */
export const verifyInEveryCell = (deps: CellDeps, release: string) => inEveryCell(deps, release, startVerifyAfterLoad);

/** After a load that wrote every cell: the rescoring of each cell's companies, as the verification above. */
export const rescoreInEveryCell = (deps: CellDeps, release: string) =>
  inEveryCell(deps, release, startRescoreAfterLoad);

type CellDeps = { db: Database; queue: Queue<JobMessage>; cells?: ReleaseCells };

async function inEveryCell(
  deps: CellDeps,
  release: string,
  start: typeof startVerifyAfterLoad,
): Promise<{ queued: number; left: number }> {
  const { cells } = deps;
  if (!cells) return start(deps, release);
  const own = ownCell(deps.db);
  const total = { queued: 0, left: 0 };
  for (const cell of cells.names) {
    const db = cell === own ? deps.db : cells.open(cell);
    const one = await start({ db, queue: deps.queue, directory: cells.directory() }, release);
    total.queued += one.queued;
    total.left += one.left;
  }
  return total;
}
