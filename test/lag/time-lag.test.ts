/**
 * The time-based lag of `npm run dev -- --lag` (src/db/simulated-replica.ts `lagMs`): an
 * unconstrained read sees the primary as of `lagMs` ago, a bookmark still makes it fresh, and
 * without a lag (the rest of test/lag) the replica stays where it is however long one waits.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { simulatedLagOf } from '../../src/db/binding';
import { simulatedReplica, syncReplica } from '../../src/db/simulated-replica';

const primary = () => env.DB;
const replica = () => env.DB_REPLICA_SIM!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A probe table on both copies (as a migration would make it), in sync, and a fresh value to write. */
async function probe(): Promise<string> {
  for (const db of [primary(), replica()]) await db.exec('CREATE TABLE IF NOT EXISTS lag_probe (v TEXT)');
  await syncReplica(primary(), replica());
  return crypto.randomUUID();
}

async function seen(db: D1Database, value: string, bookmark?: string | null): Promise<boolean> {
  const session = db.withSession(bookmark ?? 'first-unconstrained');
  return (await session.prepare('SELECT v FROM lag_probe WHERE v = ?').bind(value).first()) !== null;
}

async function write(db: D1Database, value: string): Promise<string | null> {
  const session = db.withSession();
  await session.prepare('INSERT INTO lag_probe (v) VALUES (?)').bind(value).run();
  return session.getBookmark();
}

describe('the simulated replica with a lag in time', () => {
  it('serves an unconstrained read from the primary as of lagMs ago', async () => {
    const value = await probe();
    const lagging = simulatedReplica(primary(), replica(), 400);
    await write(lagging, value);
    expect(await seen(lagging, value)).toBe(false);
    await sleep(600);
    expect(await seen(lagging, value)).toBe(true);
  });

  it('a bookmark makes its own read fresh from the primary but does not move the replica for others', async () => {
    const value = await probe();
    const lagging = simulatedReplica(primary(), replica(), 60_000);
    const bookmark = await write(lagging, value);
    expect(await seen(lagging, value, bookmark)).toBe(true);
    expect(await seen(lagging, value)).toBe(false);
    // A first-primary session (security reads) takes the primary's head as its bookmark: its
    // second read must not replay the replica either.
    const security = lagging.withSession('first-primary');
    await security.prepare('SELECT 1').first();
    expect(await security.prepare('SELECT v FROM lag_probe WHERE v = ?').bind(value).first()).not.toBeNull();
    expect(await seen(lagging, value)).toBe(false);
  });

  it('a later write stays invisible while an earlier one has caught up', async () => {
    const first = await probe();
    const lagging = simulatedReplica(primary(), replica(), 500);
    await write(lagging, first);
    await sleep(700);
    const second = crypto.randomUUID();
    await write(lagging, second);
    expect(await seen(lagging, first)).toBe(true);
    expect(await seen(lagging, second)).toBe(false);
  });

  it('with a lag of 0 reads what the primary holds; the write is still logged for the replica', async () => {
    const value = await probe();
    const none = simulatedReplica(primary(), replica(), 0);
    await write(none, value);
    expect(await seen(none, value)).toBe(true);
    expect(await seen(simulatedReplica(primary(), replica()), value)).toBe(false);
    await syncReplica(primary(), replica());
    expect(await seen(simulatedReplica(primary(), replica()), value)).toBe(true);
  });

  it('without a lag the replica waits for a bookmark, however long', async () => {
    const value = await probe();
    const waiting = simulatedReplica(primary(), replica());
    const bookmark = await write(waiting, value);
    await sleep(300);
    expect(await seen(waiting, value)).toBe(false);
    expect(await seen(waiting, value, bookmark)).toBe(true);
  });

  it('reads the lag from REPLICA_SIM_LAG_MS; unset or nonsense means no catching up', () => {
    expect(simulatedLagOf({ DB: primary(), REPLICA_SIM_LAG_MS: '3000' })).toBe(3000);
    expect(simulatedLagOf({ DB: primary(), REPLICA_SIM_LAG_MS: '0' })).toBe(0);
    expect(simulatedLagOf({ DB: primary() })).toBe(Number.POSITIVE_INFINITY);
    expect(simulatedLagOf({ DB: primary(), REPLICA_SIM_LAG_MS: '3s' })).toBe(Number.POSITIVE_INFINITY);
    expect(simulatedLagOf({ DB: primary(), REPLICA_SIM_LAG_MS: '-1' })).toBe(Number.POSITIVE_INFINITY);
  });
});
