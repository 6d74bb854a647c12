/**
 * Loads a classification release from a folder of its files into the LOCAL database (the state
 * `wrangler dev` uses), through the service's own domain functions: the files are stored as
 * uploads of the operator (see `operator` below), the load is started as Classification/StartReleaseLoad
 * does, and this process runs the job's slices itself (docs/classification-releases.md), into
 * every cell of the local state (cell-1, then CELL_2, CELL_3: docs/scaling.md section 5).
 *
 *   npm run release:load -- --system PROFICLASS --version 7.0 path/to/folder
 *   npm run release:load -- --system ETIM --version 9.0 --language en --replace path/to/folder
 *   (--format ETIM_CSV|PROFICLASS_CSV|ECLASS_CSV|BMECAT_FEATURE_SYSTEM|ETIM_XML, --persist-to DIR as with wrangler)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { createDb, type Database } from '../src/db/client';
import { newId } from '../src/kernel/ids';
import { classificationReleases, importFiles, jobs, memberships, users } from '../src/db/schema';
import type { JobMessage } from '../src/env';
import { AppError } from '../src/kernel/app-error';
import type { ReleaseFormat } from '../src/releases/release-formats';
import { failReleaseLoad, type ReleaseLoadDeps, runReleaseLoadSlice } from '../src/releases/release-load';
import { startReleaseLoad } from '../src/releases/start-release-load';
import { type ReleaseCells, scriptCellsOf } from '../src/releases/release-cells';
import { argValue, localBindings } from './lib/platform';
import type { Caller } from '../src/kernel/caller';

/** The job's continuation messages: this process runs every slice itself, so it only counts them. */
const inProcessQueue = {
  send: async () => undefined,
  sendBatch: async () => undefined,
} as unknown as Queue<JobMessage>;

/**
 * Who the load is recorded as. This process writes the local database directly, which is out of
 * band like the operator's own grant (docs/deploy.md "The service operator"), so it acts as the
 * operator: the first user flagged operator (the demo seed's operator@demo.test) in a company of
 * theirs, else the first company administrator, whose company holds the uploads.
 */
async function operator(db: Database): Promise<Caller> {
  const [member] = await db
    .select({
      userId: memberships.userId,
      companyId: memberships.companyId,
      departmentId: memberships.defaultDepartmentId,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .orderBy(desc(users.isOperator), desc(eq(memberships.role, 'admin')))
    .limit(1);
  if (!member) throw new Error('no company member in the local database: run `npm run seed` first');
  return { ...member, role: 'admin', surface: 'job', operator: true };
}

export async function loadReleaseFolder(
  /** `cells`: every cell of the local state (the load writes each, docs/scaling.md section 5). */
  deps: { db: Database; files: R2Bucket; cells?: ReleaseCells },
  input: {
    system: string;
    version: string;
    folder: string;
    format?: ReleaseFormat;
    language?: string;
    replace: boolean;
    /** Overrides the encoding sniffed from each file's first 64 KB. */
    encoding?: 'utf-8' | 'iso-8859-1' | 'windows-1252';
  },
) {
  const caller = await operator(deps.db);
  const loadDeps = { ...deps, queue: inProcessQueue, sliceMs: 20_000 };
  // A load of this release that stopped half-way (the process died): continue it from its checkpoint.
  const [pending] = await deps.db
    .select({ releaseId: classificationReleases.id, jobId: jobs.id })
    .from(classificationReleases)
    .innerJoin(jobs, eq(jobs.id, classificationReleases.jobId))
    .where(
      and(
        eq(classificationReleases.system, input.system),
        eq(classificationReleases.version, input.version),
        eq(classificationReleases.status, 'loading'),
        inArray(jobs.state, ['queued', 'running']),
      ),
    );
  if (pending) {
    console.log(`resuming the unfinished load of ${input.system}-${input.version} (job ${pending.jobId})`);
    return {
      started: { releaseId: pending.releaseId, status: 'loading', jobId: pending.jobId },
      job: await drive(loadDeps, pending.jobId),
    };
  }
  const names = readdirSync(input.folder).filter(
    (n) => /\.(csv|txt)$/i.test(n) && statSync(join(input.folder, n)).isFile(),
  );
  const files: { fileId: string; language?: string }[] = [];
  for (const name of names) {
    const id = newId();
    const key = `imports/${caller.companyId}/files/${id}`;
    const object = await deps.files.put(key, readFileSync(join(input.folder, name)));
    await deps.db.insert(importFiles).values({
      id,
      companyId: caller.companyId,
      userId: caller.userId,
      fileName: name,
      contentType: 'text/csv',
      storageKey: key,
      state: 'complete',
      size: object!.size,
    });
    files.push(input.language ? { fileId: id, language: input.language } : { fileId: id });
  }
  const started = await startReleaseLoad(loadDeps, caller, {
    system: input.system,
    version: input.version,
    format: input.format ?? null,
    files,
    replace: input.replace,
    encoding: input.encoding ?? null,
  });
  if (!started.jobId) return { started, job: null };
  return { started, job: await drive(loadDeps, started.jobId) };
}

/** Runs the job's slices until it ends, as the queue consumer would. */
async function drive(deps: ReleaseLoadDeps, jobId: string) {
  for (;;) {
    const job = (await deps.db.query.jobs.findFirst({ where: eq(jobs.id, jobId) }))!;
    if (job.state !== 'queued' && job.state !== 'running') return job;
    try {
      await runReleaseLoadSlice(deps, job);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await failReleaseLoad(deps, job, err.message);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const system = argValue('--system');
  const version = argValue('--version');
  const VALUED = new Set(['--system', '--version', '--format', '--language', '--persist-to', '--encoding']);
  const encoding = argValue('--encoding');
  const folder = args.filter((a, i) => !a.startsWith('--') && !VALUED.has(args[i - 1] ?? '')).at(-1);
  if (!system || !version || !folder || (encoding && !['utf-8', 'iso-8859-1', 'windows-1252'].includes(encoding))) {
    console.error(
      'usage: npm run release:load -- --system PROFICLASS --version 7.0 [--format F] [--language de] [--replace] ' +
        '[--encoding utf-8|iso-8859-1|windows-1252] FOLDER',
    );
    process.exit(2);
  }
  const proxy = await localBindings();
  try {
    const t0 = Date.now();
    const { started, job } = await loadReleaseFolder(
      { db: createDb(proxy.env.DB), files: proxy.env.FILES, cells: scriptCellsOf(proxy.env) },
      {
        system,
        version,
        folder,
        format: argValue('--format') as ReleaseFormat | undefined,
        language: argValue('--language'),
        replace: args.includes('--replace'),
        encoding: (encoding ?? undefined) as 'utf-8' | 'iso-8859-1' | 'windows-1252' | undefined,
      },
    );
    if (!job)
      console.log(`${system}-${version} is already loaded (release ${started.releaseId}); --replace loads it again`);
    else if (job.state === 'succeeded')
      console.log(
        JSON.stringify(
          {
            release: `${system}-${version}`,
            seconds: (Date.now() - t0) / 1000,
            summary: job.summary,
            warnings: job.warnings,
          },
          null,
          2,
        ),
      );
    else {
      console.error(`load ${job.state}: ${job.error}`);
      process.exitCode = 1;
    }
  } finally {
    await proxy.dispose();
  }
}
