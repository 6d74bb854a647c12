import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { runBatch } from '../src/db/client';
import { chunkByJsonSize, jsonInsert, jsonList } from '../src/db/json-rows';
import { departments } from '../src/db/schema';
import { newId } from '../src/kernel/ids';
import { db, makeCompany } from './helpers/factories';

/** The bound of src/db/json-rows.ts: the JSON text bound to one statement. */
const MAX_JSON_BYTES = 256 * 1024;

describe('chunkByJsonSize', () => {
  it('cuts rows of very different sizes so that every list stays under the bound', () => {
    // many small rows, then a few large ones: equal row counts would overflow the bound
    const rows = [
      ...Array.from({ length: 2000 }, (_, i) => [i]),
      ...Array.from({ length: 8 }, (_, i) => [i, 'w'.repeat(100 * 1024)]),
    ];
    const chunks = chunkByJsonSize(rows);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(MAX_JSON_BYTES);
    expect(chunks.flatMap((c) => JSON.parse(c) as unknown[][])).toEqual(rows);
  });

  it('keeps every row, in order, in JSON lists that each stay under the bound', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => [`id-${i}`, 'x'.repeat(i % 300), i, i % 2 === 0, null]);
    const chunks = chunkByJsonSize(rows);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(MAX_JSON_BYTES);
    expect(chunks.flatMap((c) => JSON.parse(c) as unknown[][])).toEqual(rows);
  });

  it('groups by size, not by count: small rows share a statement, large ones are split', () => {
    const small = Array.from({ length: 3000 }, (_, i) => [i]);
    expect(chunkByJsonSize(small)).toHaveLength(1);
    const large = Array.from({ length: 10 }, (_, i) => [`${i}`, 'y'.repeat(60 * 1024)]);
    const chunks = chunkByJsonSize(large);
    // four rows of 60 KiB fit under 256 KiB, a fifth does not: at least three lists
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(MAX_JSON_BYTES);
    expect(chunks.flatMap((c) => JSON.parse(c) as unknown[][])).toEqual(large);
  });

  it('puts a row larger than the bound in a list of its own, and gives no list for no rows', () => {
    const huge = ['z'.repeat(MAX_JSON_BYTES + 10)];
    const chunks = chunkByJsonSize([[1], huge, [2]]);
    expect(chunks.map((c) => JSON.parse(c))).toEqual([[[1]], [huge], [[2]]]);
    expect(chunkByJsonSize([])).toEqual([]);
  });
});

describe('jsonInsert against D1', () => {
  it('writes thousands of rows with quotes, non-ASCII text and defaults in a handful of statements', async () => {
    const { companyId } = await makeCompany();
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: newId(),
      companyId,
      name: `Abteilung "${i}" Größe ✓ ${'n'.repeat(i % 200)}`,
    }));
    const statements = jsonInsert(db(), departments, rows);
    // 3,000 rows of about 150 bytes of JSON each: 2 statements of at most 256 KB, where bound
    // parameters would allow 100 / 4 = 25 rows per statement
    expect(statements.length).toBeLessThanOrEqual(3);
    await runBatch(db(), statements);
    const stored = await db()
      .select({ id: departments.id, name: departments.name, createdAt: departments.createdAt })
      .from(departments)
      .where(eq(departments.companyId, companyId))
      .orderBy(asc(departments.name));
    // 3,000 written plus the company's own department
    expect(stored).toHaveLength(3001);
    const byId = new Map(stored.map((r) => [r.id, r]));
    for (const row of rows) expect(byId.get(row.id)?.name).toBe(row.name);
    // the column the rows leave out took its default
    expect(stored.every((r) => typeof r.createdAt === 'string' && r.createdAt.length > 0)).toBe(true);
  });

  it('is all-or-nothing inside a batch: a conflicting row writes none of its statement', async () => {
    const { companyId, departmentId } = await makeCompany();
    const rows = [
      { id: newId(), companyId, name: 'new' },
      { id: departmentId, companyId, name: 'clash' },
    ];
    await expect(runBatch(db(), jsonInsert(db(), departments, rows))).rejects.toThrow();
    const names = await db()
      .select({ name: departments.name })
      .from(departments)
      .where(eq(departments.companyId, companyId));
    expect(names.map((n) => n.name)).toEqual(['Sales']);
    // `orIgnore` skips the existing row and writes the new one
    await runBatch(db(), jsonInsert(db(), departments, rows, { orIgnore: true }));
    const after = await db()
      .select({ name: departments.name })
      .from(departments)
      .where(eq(departments.companyId, companyId));
    expect(after.map((n) => n.name).sort()).toEqual(['Sales', 'new']);
  });

  it('groups rows by the columns they set, in any order of the rows, each column else its default', async () => {
    const { companyId } = await makeCompany();
    const rows = Array.from({ length: 6 }, (_, i) => ({
      id: newId(),
      companyId,
      name: `d${i}`,
      ...(i % 2 === 1 ? { createdAt: `2020-01-0${i} 00:00:00` } : {}),
    }));
    const statements = jsonInsert(db(), departments, rows);
    expect(statements).toHaveLength(2);
    await runBatch(db(), statements);
    const stored = new Map(
      (
        await db()
          .select({ id: departments.id, name: departments.name, createdAt: departments.createdAt })
          .from(departments)
          .where(eq(departments.companyId, companyId))
      ).map((r) => [r.id, r]),
    );
    rows.forEach((row, i) => {
      expect(stored.get(row.id)?.name).toBe(`d${i}`);
      if (i % 2 === 1) expect(stored.get(row.id)?.createdAt).toBe(`2020-01-0${i} 00:00:00`);
      else expect(stored.get(row.id)?.createdAt).not.toMatch(/^2020/);
    });
  });

  it('refuses a column the table does not have', () => {
    expect(() => jsonInsert(db(), departments, [{ id: 'a', nope: 1 } as never])).toThrow(/has no column nope/);
  });

  it('refuses a column the table does not have in a later row whose columns differ from the rows before it', () => {
    const good = { id: 'a', companyId: 'c', name: 'n' };
    expect(() =>
      jsonInsert(db(), departments, [good, { ...good, id: 'b' }, { ...good, id: 'c', nope: 1 } as never, good]),
    ).toThrow(/has no column nope/);
  });

  it('jsonList matches any number of keys with one bound parameter (tenant filter kept)', async () => {
    const { companyId } = await makeCompany();
    const ids = Array.from({ length: 500 }, () => newId());
    await runBatch(
      db(),
      jsonInsert(
        db(),
        departments,
        ids.map((id, i) => ({ id, companyId, name: `d${i}` })),
      ),
    );
    const wanted = ids.slice(0, 300);
    const found = await db()
      .select({ id: departments.id })
      .from(departments)
      .where(and(eq(departments.companyId, companyId), sql`${departments.id} IN ${jsonList(wanted)}`));
    expect(found.map((r) => r.id).sort()).toEqual([...wanted].sort());
  });
});
