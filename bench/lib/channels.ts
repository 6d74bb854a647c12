import { execFileSync } from 'node:child_process';
import { type ApiCall, waitForJob } from './session';

/**
 * The channels `bench:api --channels N` adds for issue 21's numbers (docs/completeness.md):
 * N channels, each publishing every language of the catalog, each with the five rules
 * bench/completeness.ts uses (name, GTIN, an image, a net list price, the GTIN check digit).
 * AddChannel answers a job that scores the whole catalog: its wall time is the recompute
 * time of one channel.
 */
export async function addBenchChannels(call: ApiCall, languages: string[], count: number) {
  const run = Date.now().toString(36);
  const added: { channelId: string; seconds: number }[] = [];
  for (let n = 1; n <= count; n++) {
    const start = performance.now();
    const { channelId, jobId } = await call<{ channelId: string; jobId: string }>('/Catalog/AddChannel', {
      name: `Bench channel ${n} ${run}`,
      languages,
      requirements: [
        { kind: 'field', field: 'name' },
        { kind: 'field', field: 'gtin' },
        { kind: 'media', purpose: 'normal' },
        { kind: 'price', priceType: 'net_list' },
        { kind: 'quality', rule: 'gtinCheckDigit' },
      ],
    });
    const job = await waitForJob(call, jobId, 1000);
    if (job.state !== 'succeeded') throw new Error(`AddChannel ${n}: the recompute job ${job.state}`);
    added.push({ channelId, seconds: (performance.now() - start) / 1000 });
    process.stderr.write(`channel ${n}: scored in ${added.at(-1)!.seconds.toFixed(1)} s\n`);
  }
  return added;
}

/** Removes the bench's channels again, so that a kept state measures "before" the same way next time. */
export async function deleteBenchChannels(call: ApiCall, channelIds: string[]) {
  for (const channelId of channelIds) {
    const { jobId } = await call<{ jobId: string }>('/Catalog/DeleteChannel', { channelId });
    await waitForJob(call, jobId, 1000);
  }
}

/** Bytes per master of the score tables and their indexes (dbstat), read while no server runs. */
export function scoreBytes(file: string, masters: number): string {
  const out = execFileSync(
    'sqlite3',
    [
      '-readonly',
      file,
      `SELECT name, sum(pgsize) FROM dbstat WHERE name LIKE '%completeness%' GROUP BY name ORDER BY name`,
    ],
    { encoding: 'utf8' },
  ).trim();
  const rows = out ? out.split('\n').map((line) => line.split('|') as [string, string]) : [];
  const total = rows.reduce((sum, [, bytes]) => sum + Number(bytes), 0);
  return `score tables and indexes: ${(total / masters).toFixed(0)} B per master (${rows
    .map(([name, bytes]) => `${name} ${(Number(bytes) / masters).toFixed(0)} B`)
    .join(', ')})`;
}
