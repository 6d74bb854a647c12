/**
 * The grid filter "missing translation in X" (GetProducts `missingTranslation`, docs/languages.md)
 * at scale: seeds (or reuses) a synthetic catalog, publishes English in it (the triggers of
 * migration 0025 record every master's gap), then times the product list's domain function on
 * the local D1 at three stages: nothing translated, all but 1% translated, all translated.
 *
 *   npm run bench:translation-gaps -- --masters 100000 [--state DIR] [--runs 40]
 *
 * Prints a Markdown table: stage, gaps, p50 and p95 in ms of the first page and of a later page.
 */
import { sql } from 'drizzle-orm';
import { createDb } from '../src/db/client';
import { listProducts } from '../src/catalog/product-list';
import type { Caller } from '../src/kernel/caller';
import { argValue, localBindings } from '../scripts/lib/platform';
import { releaseState, seededState } from './lib/state';

const masters = Number(argValue('--masters', '100000'));
const runs = Number(argValue('--runs', '40'));
const state = await seededState(masters, argValue('--state'), 'pim-gaps-');
const proxy = await localBindings(['--persist-to', state.dir]);
const db = createDb(proxy.env.DB);
const { companyId, departmentId, catalogId } = state.seeded;
const caller: Caller = { companyId, departmentId, userId: 'bench', surface: 'web' } as unknown as Caller;

async function timed<T>(run: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const result = await run();
  return [performance.now() - start, result];
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function stage(name: string) {
  const n = (
    (await db.all(
      sql`SELECT count(*) AS n FROM translation_gaps WHERE catalog_id = ${catalogId} AND lang = 'eng'`,
    )) as { n: number }[]
  )[0]?.n;
  const input = { catalogId, missingTranslation: 'eng', limit: 50 };
  const first: number[] = [];
  const later: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [ms, page] = await timed(() => listProducts(db, caller, input));
    first.push(ms);
    if (page.nextCursor)
      later.push((await timed(() => listProducts(db, caller, { ...input, cursor: page.nextCursor! })))[0]);
  }
  const byName: number[] = [];
  for (let i = 0; i < runs; i++)
    byName.push((await timed(() => listProducts(db, caller, { ...input, sort: 'name' })))[0]);
  console.log(
    `| ${name} | ${n} | ${pct(first, 0.5).toFixed(1)} | ${pct(first, 0.95).toFixed(1)} | ${later.length ? pct(later, 0.95).toFixed(1) : '-'} | ${pct(byName, 0.95).toFixed(1)} |`,
  );
}

await db.run(sql`UPDATE companies SET languages = '["deu","eng"]' WHERE id = ${companyId}`);
const [publish] = await timed(() =>
  db.run(sql`UPDATE catalogs SET languages = json_array(language, 'eng') WHERE id = ${catalogId}`),
);
console.log(`publishing English in ${masters} masters (trigger recompute): ${publish.toFixed(0)} ms\n`);
console.log('| stage | gaps | first page p50 ms | first page p95 ms | 2nd page p95 ms | sorted by name p95 ms |');
console.log('|---|---:|---:|---:|---:|---:|');
await stage('nothing translated');
// Translate every master but 1% (names and descriptions), in slices the local D1 takes.
const ids = (await db.all(
  sql`SELECT id, name, description FROM products WHERE catalog_id = ${catalogId} AND parent_id IS NULL ORDER BY id`,
)) as {
  id: string;
  name: string | null;
  description: string | null;
}[];
const toTranslate = ids.filter((_, i) => i % 100 !== 0);
const [translateMs] = await timed(async () => {
  for (let i = 0; i < toTranslate.length; i += 500) {
    const rows = toTranslate
      .slice(i, i + 500)
      .flatMap((p) => [
        ...(p.name ? [[p.id, 'name', `EN ${p.name}`]] : []),
        ...(p.description ? [[p.id, 'description', `EN ${p.description}`]] : []),
      ]);
    await db.run(
      sql`INSERT OR REPLACE INTO translations (element_id, field, lang, value) SELECT value->>0, value->>1, 'eng', value->>2 FROM json_each(${JSON.stringify(rows)})`,
    );
  }
});
console.log(`\n(translated ${toTranslate.length} masters in ${translateMs.toFixed(0)} ms)\n`);
await stage('99% translated');
const rest = ids.filter((_, i) => i % 100 === 0);
await db.run(
  sql`INSERT OR REPLACE INTO translations (element_id, field, lang, value) SELECT value->>0, value->>1, 'eng', 'EN' FROM json_each(${JSON.stringify(
    rest.flatMap((p) => [...(p.name ? [[p.id, 'name']] : []), ...(p.description ? [[p.id, 'description']] : [])]),
  )})`,
);
await stage('all translated');
await proxy.dispose();
releaseState(state);
