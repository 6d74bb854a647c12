import { eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { dbNow, dbNowShifted } from '../kernel/clock';
import { signInThrottle } from '../db/schema';
import { AppError } from '../kernel/app-error';
import { sha256Hex } from '../kernel/hashing';

/**
 * Password guesses per (email, client IP) pair, whether the email belongs to an account or not
 * (docs/reliability.md). The first FREE_TRIES tries are checked at once; after that every try
 * must wait BASE_DELAY_S doubled per further try, at most MAX_DELAY_S. A throttled try is
 * answered 429 before any lookup, identically for known and unknown emails, and someone at
 * another IP is never held up: no one can lock a user out by knowing the email.
 */
export const FREE_TRIES = 5;
const BASE_DELAY_S = 15;
const MAX_DELAY_S = 15 * 60;
/** A pair untouched this long starts again from zero (and is pruned). */
const FORGET_AFTER = '-1 day';

async function keyOf(email: string, clientIp: string): Promise<string> {
  return sha256Hex(`${email.trim().toLowerCase()}\n${clientIp}`);
}

/**
 * Claims one try for the pair, or throws 429 with Retry-After. One upsert counts the try and
 * sets the next allowed moment, and it only applies when the pair is not waiting, so a burst of
 * parallel guesses is counted exactly and only FREE_TRIES of them are ever checked.
 */
export async function claimSignInTry(db: Database, email: string, clientIp: string): Promise<void> {
  const key = await keyOf(email, clientIp);
  const fresh = sql`${signInThrottle.updatedAt} < ${dbNowShifted(FORGET_AFTER)}`;
  const tries = sql`(CASE WHEN ${fresh} THEN 1 ELSE ${signInThrottle.tries} + 1 END)`;
  const waitS = sql`min(${MAX_DELAY_S}, ${BASE_DELAY_S} << min(${tries} - ${FREE_TRIES}, 8))`;
  const claimed = await db.get<{ tries: number } | undefined>(sql`
    INSERT INTO ${signInThrottle} (key, tries, next_allowed_at, updated_at) VALUES (${key}, 1, ${dbNow}, ${dbNow})
    ON CONFLICT (key) DO UPDATE SET
      tries = ${tries},
      next_allowed_at = CASE WHEN ${tries} >= ${FREE_TRIES} THEN ${dbNowShifted(sql`'+' || ${waitS} || ' seconds'`)} ELSE ${dbNow} END,
      updated_at = ${dbNow}
    WHERE ${signInThrottle.nextAllowedAt} <= ${dbNow}
    RETURNING tries`);
  if (claimed) return;
  const row = await db.query.signInThrottle.findFirst({
    where: eq(signInThrottle.key, key),
    columns: { nextAllowedAt: true },
  });
  const seconds = Math.max(1, Math.ceil((Date.parse(row?.nextAllowedAt ?? '') - Date.now()) / 1000) || 1);
  throw new AppError('rate_limited', 'too many failed sign-in attempts; try again later', {
    'Retry-After': String(seconds),
  });
}

/** The right password was given: the pair starts again from zero. */
export async function clearSignInTries(db: Database, email: string, clientIp: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, await keyOf(email, clientIp)));
}

/** Deletes pairs untouched for a day (run by the Cron Trigger). */
export async function pruneSignInThrottle(db: Database): Promise<void> {
  await db.delete(signInThrottle).where(lt(signInThrottle.updatedAt, dbNowShifted(FORGET_AFTER)));
}
