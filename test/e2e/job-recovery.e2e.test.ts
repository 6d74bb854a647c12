import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { migrate, run, startDevServer, type DevServer } from '../../scripts/lib/dev-server';
import { api, login } from './export-harness';

/**
 * Kills `wrangler dev` in the middle of a large CSV export and restarts it on the same state
 * (the local queue loses its message, as a dead worker or a dead-lettered message would in
 * production): the job must end succeeded or failed with a reason, never stay stuck. The
 * short stale window keeps the runtime modest; one page per slice (EXPORT_SLICE_MS=1) spreads the
 * export over several queue messages, so the kill lands mid-run even on an idle machine (docs/reliability.md).
 */
const MASTERS = 1_000;
const ARGS = ['--var', 'JOB_STALE_MS:6000', '--var', 'EXPORT_SLICE_MS:1'];

const dir = mkdtempSync(join(tmpdir(), 'pim-recovery-'));
let server: DevServer | undefined;
afterAll(() => {
  server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('an export whose wrangler dev is killed mid-run resumes after the restart and ends, never stuck', {
  timeout: 600_000,
}, async () => {
  await migrate(dir);
  const seeded = JSON.parse(
    (await run('npm', ['run', '--silent', 'seed:synthetic', '--', '--products', String(MASTERS), '--persist-to', dir]))
      .trim()
      .split('\n')
      .at(-1)!,
  );

  server = await startDevServer(dir, { args: ARGS });
  let cookie = await login(seeded.email, seeded.password, server.baseUrl);
  const { jobId } = await api(
    cookie,
    'Export/StartExport',
    {
      departmentId: seeded.departmentId,
      catalogId: seeded.catalogId,
      exportType: 'CSV',
    },
    server.baseUrl,
  );
  let job: any;
  for (let i = 0; i < 1200; i++) {
    job = await api(cookie, `Job/GetJob?jobId=${jobId}`, undefined, server.baseUrl);
    // Killed as soon as it runs: on an idle machine a slice can write the whole file in a second.
    if (job.state !== 'queued') break;
    await sleep(20);
  }
  expect(job.state).toBe('running');
  expect(job.progress.done).toBeLessThan(job.progress.total);
  const doneAtKill = job.progress.done;

  // SIGKILL the whole process group: no graceful shutdown, the in-flight slice and its message die.
  process.kill(-server.child.pid!, 'SIGKILL');
  await new Promise((r) => server!.child.once('exit', r));
  server = await startDevServer(dir, { args: ARGS });
  cookie = await login(seeded.email, seeded.password, server.baseUrl);

  const started = Date.now();
  for (let i = 0; i < 2400; i++) {
    job = await api(cookie, `Job/GetJob?jobId=${jobId}`, undefined, server.baseUrl);
    if (['succeeded', 'failed', 'cancelled'].includes(job.state)) break;
    await sleep(250);
  }
  console.log(
    `job recovery e2e: killed at ${doneAtKill}/${job.progress.total} rows, ended ${job.state} ${((Date.now() - started) / 1000).toFixed(1)} s after the restart${job.error ? `: ${job.error}` : ''}`,
  );
  expect(['succeeded', 'failed']).toContain(job.state);
  if (job.state === 'failed') {
    expect(job.error).toMatch(/\w/);
    return;
  }
  const download = await fetch(`${server.baseUrl}/api/Export/Download?jobId=${jobId}`, { headers: { Cookie: cookie } });
  const text = (await download.text()).replace(/^\uFEFF/, '');
  const lines = text.split('\r\n').filter((l) => l !== '');
  // Header plus one line per product row (no text field holds a line break in the synthetic catalog).
  expect(lines.length - 1).toBe(seeded.masters + seeded.variants);
  const ids = lines.slice(1).map((l) => l.slice(0, 36));
  expect(new Set(ids).size).toBe(ids.length);
  expect(job.progress).toEqual({ done: ids.length, total: ids.length });
});
