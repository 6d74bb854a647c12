import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { isUniqueViolation, type Database } from '../db/client';
import { classificationReleases, jobs } from '../db/schema';
import type { JobMessage } from '../env';
import { badRequest, conflict } from '../kernel/app-error';
import { assertOperator } from '../accounts/operator-only';
import { findImportFile } from '../imports/import-files';
import { enqueueJob } from '../jobs/jobs';
import type { ReleaseCheckpoint, ReleaseFile } from './release-checkpoint';
import { readReleaseHeader } from './release-csv';
import { defaultFormat, formatOf, RELEASE_FORMATS, roleOfHeader, XML_LAYOUT } from './release-formats';
import type { ReleaseLoadParams } from './release-load';
import { normalizeLanguage, ROLE_ORDER, type RowReject } from './release-rows';
import type { Caller } from '../kernel/caller';
import { nextReleaseId, ownCell, type ReleaseCells } from './release-cells';

export const ReleaseSystem = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]{1,19}$/, 'system is upper case, e.g. ETIM, ECLASS, PROFICLASS, UNSPSC');
export const ReleaseVersion = z
  .string()
  .regex(/^[0-9A-Za-z][0-9A-Za-z._-]{0,31}$/, 'version is e.g. 9.0, 7.0 or DYNAMIC-2025-06');

export const StartReleaseLoadDto = z.strictObject({
  system: ReleaseSystem,
  version: ReleaseVersion,
  /** Left out: the format the system publishes in (PROFICLASS_CSV, ETIM_CSV, ECLASS_CSV); BMECAT_FEATURE_SYSTEM reads the CLASSIFICATION_SYSTEM of a BMEcat 2005 file, ETIM_XML an ETIM IXF release file. */
  format: z.enum(RELEASE_FORMATS).nullish(),
  /** The release's files, uploaded with Import/Upload; which file is which is read from its header. */
  files: z
    .array(z.strictObject({ fileId: z.uuid(), language: z.string().max(10).nullish() }))
    .min(1)
    .max(40),
  /** A release of this system and version is already loaded: true loads it again and swaps it in; false (default) changes nothing. */
  replace: z.boolean().default(false),
  /** The files' encoding, overriding what their first 64 KB suggest (a Latin-1 file whose first 64 KB are ASCII). */
  encoding: z.enum(['utf-8', 'iso-8859-1', 'windows-1252']).nullish(),
});

/** The request's encoding names as the text readers name them. */
const ENCODINGS = { 'utf-8': 'utf-8', 'iso-8859-1': 'latin1', 'windows-1252': 'windows-1252' } as const;

export const StartReleaseLoadOut = z.object({
  releaseId: z.number().int(),
  status: z.enum(['loading', 'loaded']),
  /** The load job (Job/GetJob); null when the release was already loaded and nothing was started. */
  jobId: z.string().nullable(),
});

/**
 * Queues the load of a release (docs/classification-releases.md): checks the files (each
 * uploaded by the caller's company, its header recognised as one file of the format), then
 * inserts the release in status `loading` and the job in one transaction. A release already
 * loaded is a no-op unless `replace`; a load of the same release already running is a 409.
 */
export async function startReleaseLoad(
  deps: { db: Database; files: R2Bucket; queue: Queue<JobMessage>; cells?: ReleaseCells },
  caller: Caller,
  input: z.infer<typeof StartReleaseLoadDto>,
): Promise<z.infer<typeof StartReleaseLoadOut>> {
  assertOperator(caller);
  const { db } = deps;
  const format = input.format ?? defaultFormat(input.system);
  if (!format) throw badRequest(`format is required for system ${input.system} (one of ${RELEASE_FORMATS.join(', ')})`);
  const spec = formatOf(format);
  const loaded = await db.query.classificationReleases.findFirst({
    where: and(
      eq(classificationReleases.system, input.system),
      eq(classificationReleases.version, input.version),
      eq(classificationReleases.status, 'loaded'),
    ),
  });
  if (loaded && !input.replace && (await loadedInEveryCell(deps, input)))
    return { releaseId: loaded.id, status: 'loaded', jobId: null };
  await releaseAbandonedLoads(db);

  const files: ReleaseFile[] = [];
  for (const given of input.files) {
    const row = await findImportFile(db, caller, given.fileId);
    if (row.state !== 'complete') throw conflict(`${row.fileName}: the upload is not complete yet`);
    const { columns, encoding, xml } = await readReleaseHeader(
      deps.files,
      row.storageKey,
      row.fileName,
      input.encoding ? ENCODINGS[input.encoding] : undefined,
    );
    if (xml !== (XML_LAYOUT[format] !== undefined))
      throw badRequest(`${row.fileName}: ${xml ? 'an XML file' : 'a delimited text file'} is not a file of ${format}`);
    const role = xml ? spec.roles[0]! : roleOfHeader(spec, columns);
    if (!role)
      throw badRequest(`${row.fileName}: the header (${columns.slice(0, 6).join(';')}) is not a file of ${format}`);
    let lang: string;
    try {
      lang = normalizeLanguage(given.language ?? spec.defaultLanguage);
    } catch (err) {
      throw badRequest(`files.language: ${(err as RowReject).message}`);
    }
    files.push({
      fileId: row.id,
      name: row.fileName,
      key: row.storageKey,
      role: role.role,
      encoding,
      lang,
      kind: xml ? 'xml' : 'csv',
    });
  }
  files.sort((a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role));
  if (!files.some((f) => f.role === 'classes' || f.role === 'featureSystem'))
    throw badRequest('the files have no class file');

  const checkpoint: Omit<ReleaseCheckpoint, 'releaseId'> = {
    seq: 0,
    phase: 'read',
    files,
    fileIndex: 0,
    rowsDone: 0,
    rows: {},
  };
  const params: ReleaseLoadParams = { system: input.system, version: input.version, format, replace: input.replace };
  // One id in every cell the load writes (release-cells.ts): the next id none of them has used.
  const id = deps.cells ? await nextReleaseId(deps.cells) : undefined;
  let releaseId = 0;
  try {
    const job = await enqueueJob(
      deps,
      { companyId: caller.companyId, departmentId: caller.departmentId, userId: caller.userId },
      {
        kind: 'releaseLoad',
        params: { ...params },
        total: files.length + 1,
        related: (jobId) => [
          db
            .insert(classificationReleases)
            .values({ id, system: input.system, version: input.version, status: 'loading', format, jobId })
            .returning({ id: classificationReleases.id }),
          db
            .update(jobs)
            .set({
              checkpoint: sql`json_set(${JSON.stringify(checkpoint)}, '$.releaseId',
                (SELECT ${classificationReleases.id} FROM ${classificationReleases} WHERE ${classificationReleases.jobId} = ${jobId}))`,
            })
            .where(eq(jobs.id, jobId)),
        ],
        admit: async (results) => {
          releaseId = (results[0] as { id: number }[])[0]!.id;
        },
      },
    );
    return { releaseId, status: 'loading', jobId: job.jobId };
  } catch (err) {
    if (isUniqueViolation(err, 'classification_releases.system, classification_releases.version'))
      throw conflict(`${input.system}-${input.version} is being loaded already`);
    if (isUniqueViolation(err, 'classification_releases.id'))
      throw conflict('another release load started at the same moment: start this one again');
    if (releaseId)
      await db
        .update(classificationReleases)
        .set({ status: 'failed', error: 'the job could not be queued' })
        .where(eq(classificationReleases.id, releaseId));
    throw err;
  }
}

/**
 * A release still `loading` whose job ended without finishing it (the recovery sweep failed a
 * job whose worker kept dying) is marked failed, so a new load of it may start; its rows are
 * purged by that load.
 */
async function releaseAbandonedLoads(db: Database): Promise<void> {
  await db
    .update(classificationReleases)
    .set({ status: 'failed', error: 'the load job ended without finishing' })
    .where(
      and(
        eq(classificationReleases.status, 'loading'),
        inArray(
          classificationReleases.jobId,
          db
            .select({ id: jobs.id })
            .from(jobs)
            .where(and(eq(jobs.kind, 'releaseLoad'), inArray(jobs.state, ['failed', 'cancelled', 'succeeded']))),
        ),
      ),
    );
}

/** Whether every further cell has the release loaded too (a release loaded before cells were walked may be missing in some). */
async function loadedInEveryCell(
  deps: { db: Database; cells?: ReleaseCells },
  input: { system: string; version: string },
): Promise<boolean> {
  if (!deps.cells) return true;
  const own = ownCell(deps.db);
  for (const cell of deps.cells.names) {
    if (cell === own) continue;
    const found = await deps.cells.open(cell).query.classificationReleases.findFirst({
      where: and(
        eq(classificationReleases.system, input.system),
        eq(classificationReleases.version, input.version),
        eq(classificationReleases.status, 'loaded'),
      ),
    });
    if (!found) return false;
  }
  return true;
}
