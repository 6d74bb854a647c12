import { env } from 'cloudflare:workers';

/** Tables too big to hash whole on every check are compared by row count. */
const HASH_LIMIT = 300;

let tables: Promise<{ name: string; scoped: boolean; order: string }[]> | undefined;

async function listTables() {
  const names = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' ORDER BY name",
  ).all<{ name: string }>();
  const out = [];
  for (const { name } of names.results) {
    const columns = await env.DB.prepare('SELECT name FROM pragma_table_info(?)').bind(name).all<{ name: string }>();
    // Ordered by every column (up to the first two): a one-column table has no second term.
    const order = columns.results.length > 1 ? '1, 2' : '1';
    out.push({ name, scoped: columns.results.some((c) => c.name === 'company_id'), order });
  }
  return out;
}

/**
 * A digest of everything the given companies own: every table with a company_id column
 * (their rows), every other table whole (or its row count when large). Tables other
 * engineers add are included automatically. Equal digests before and after a request prove
 * the request changed nothing.
 */
export async function tenantDigest(companyIds: string[]): Promise<string> {
  const list = await (tables ??= listTables());
  const marks = companyIds.map(() => '?').join(',');
  // One batch, one round trip: small tables whole, large ones by count (decided in SQL).
  const results = await env.DB.batch(
    list.map(({ name, scoped, order }) =>
      scoped
        ? env.DB.prepare(`SELECT * FROM "${name}" WHERE company_id IN (${marks}) ORDER BY ${order}`).bind(...companyIds)
        : env.DB.prepare(
            `SELECT * FROM "${name}" WHERE (SELECT count(*) FROM "${name}") <= ${HASH_LIMIT} ORDER BY ${order}`,
          ),
    ),
  );
  const counts = await env.DB.batch(
    list.filter((t) => !t.scoped).map(({ name }) => env.DB.prepare(`SELECT count(*) AS n FROM "${name}"`)),
  );
  const parts = list.map(({ name }, i) => `${name}:${JSON.stringify(results[i]!.results)}`);
  parts.push(JSON.stringify(counts.map((c) => c.results)));
  const bytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(parts.join('\n')));
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Rows per table that the given companies own (their rows where a table has company_id, the
 * whole table otherwise): a request that lowers any count removed something.
 */
export async function tenantRowCounts(companyIds: string[]): Promise<Record<string, number>> {
  // The full-text index's own tables grow and shrink with the text they index: not data.
  const list = (await (tables ??= listTables())).filter(({ name }) => !name.includes('_fts'));
  const marks = companyIds.map(() => '?').join(',');
  const results = await env.DB.batch<{ n: number }>(
    list.map(({ name, scoped }) =>
      scoped
        ? env.DB.prepare(`SELECT count(*) AS n FROM "${name}" WHERE company_id IN (${marks})`).bind(...companyIds)
        : env.DB.prepare(`SELECT count(*) AS n FROM "${name}"`),
    ),
  );
  return Object.fromEntries(list.map(({ name }, i) => [name, results[i]!.results[0]!.n]));
}
