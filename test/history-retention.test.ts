import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import worker from '../src/index';
import { newId } from '../src/kernel/ids';
import { companies, historyVersions } from '../src/db/schema';
import { HISTORY_PRUNE_CRON, pruneHistory } from '../src/history/retention';
import { db, makeCompany } from './helpers/factories';

const monthsAgo = (months: number) => {
  const d = new Date();
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString();
};

async function seedVersions(companyId: string, at: string, count: number) {
  const rows = Array.from({ length: count }, () => ({
    id: newId(),
    companyId,
    elementId: newId(),
    elementKind: 'product',
    action: 'update',
    userId: 'u',
    surface: 'web' as const,
    changes: '[["name","a","b"]]',
    at,
  }));
  for (let i = 0; i < rows.length; i += 9)
    await db()
      .insert(historyVersions)
      .values(rows.slice(i, i + 9));
}

const countOf = async (companyId: string) =>
  (await db().select({ id: historyVersions.id }).from(historyVersions).where(eq(historyVersions.companyId, companyId)))
    .length;

describe('History retention', () => {
  it('prunes versions older than each company retention in bounded runs and keeps the rest', async () => {
    const short = await makeCompany();
    const standard = await makeCompany();
    await db().update(companies).set({ historyRetentionMonths: 3 }).where(eq(companies.id, short.companyId));
    await seedVersions(short.companyId, monthsAgo(4), 25);
    await seedVersions(short.companyId, monthsAgo(1), 5);
    await seedVersions(standard.companyId, monthsAgo(4), 7);
    await seedVersions(standard.companyId, monthsAgo(25), 6);

    // A run may delete at most 10 rows: the backlog takes several runs, never more per run.
    const first = await pruneHistory(db(), { chunk: 4, maxRows: 10 });
    expect(first.deleted).toBe(10);
    let total = first.deleted;
    for (let run = 0; run < 10 && total < 31; run++) {
      const next = await pruneHistory(db(), { chunk: 4, maxRows: 10 });
      expect(next.deleted).toBeLessThanOrEqual(10);
      total += next.deleted;
    }
    expect(await countOf(short.companyId)).toBe(5);
    expect(await countOf(standard.companyId)).toBe(7);
    const pruned = await db().query.companies.findFirst({ where: and(eq(companies.id, short.companyId)) });
    expect(pruned!.historyPrunedAt).toBeTruthy();
  });

  it('prunes the review and completeness events of the changes feed with the versions, keeping the recent ones', async () => {
    const company = await makeCompany();
    await db().update(companies).set({ historyRetentionMonths: 3 }).where(eq(companies.id, company.companyId));
    const event = (at: string) =>
      env.DB.prepare(
        "INSERT INTO domain_events (company_id, event_type, order_key, data, at) VALUES (?, 'review.submitted', 'p', '{}', ?)",
      )
        .bind(company.companyId, at)
        .run();
    for (let i = 0; i < 7; i++) await event(monthsAgo(5));
    for (let i = 0; i < 2; i++) await event(monthsAgo(1));
    await seedVersions(company.companyId, monthsAgo(5), 3);
    const events = async () =>
      (await env.DB.prepare('SELECT count(*) AS n FROM domain_events WHERE company_id = ?')
        .bind(company.companyId)
        .first<{
          n: number;
        }>())!.n;
    // bounded like the versions: 4 rows a run, the company marked pruned only when both are done
    const first = await pruneHistory(db(), { chunk: 2, maxRows: 4 });
    expect(first.deleted).toBe(4);
    for (let run = 0; run < 10 && (await events()) > 2; run++) await pruneHistory(db(), { chunk: 2, maxRows: 4 });
    expect(await events()).toBe(2);
    expect(await countOf(company.companyId)).toBe(0);
    const pruned = await db().query.companies.findFirst({ where: eq(companies.id, company.companyId) });
    expect(pruned!.historyPrunedAt).toBeTruthy();
  });

  it('runs from the Cron Trigger through the scheduled handler', async () => {
    const company = await makeCompany();
    await seedVersions(company.companyId, monthsAgo(30), 3);
    await seedVersions(company.companyId, monthsAgo(2), 2);
    // Called as the runtime calls it (the handler awaits its own work).
    const handler = worker.scheduled as (controller: ScheduledController, env: unknown, ctx?: unknown) => Promise<void>;
    await handler(createScheduledController({ cron: HISTORY_PRUNE_CRON, scheduledTime: Date.now() }), env);
    expect(await countOf(company.companyId)).toBe(2);
  });
});
