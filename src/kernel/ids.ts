import { z } from 'zod';
import { badRequest } from './app-error';

let lastMs = 0;
let counter = 0;

/** Random bytes drawn 4 KiB at a time: one getRandomValues per 256 ids (an import makes ids by the hundred thousand). */
const pool = new Uint8Array(4096);
let poolAt = pool.length;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * UUIDv7 (RFC 9562): time-ordered, so rows inserted together sit together in the B-tree and
 * keyset pages by id come out in creation order. Within one millisecond the 12-bit `rand_a`
 * field is a counter (RFC 9562 section 6.2, method 1), so ids made in the same isolate keep
 * their creation order even when several are made in the same millisecond.
 */
export function newId(): string {
  if (poolAt + 16 > pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  const bytes = pool.slice(poolAt, poolAt + 16);
  poolAt += 16;
  let ms = Date.now();
  if (ms <= lastMs) {
    counter++;
    ms = lastMs;
    if (counter > 0xfff) {
      // Counter exhausted: borrow the next millisecond rather than break the order.
      ms = ++lastMs;
      counter = 0;
    }
  } else {
    lastMs = ms;
    // Start low in the range so the counter rarely overflows.
    counter = bytes[6]! & 0x7f;
  }
  bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  bytes[6] = 0x70 | ((counter >>> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  let hex = '';
  for (let i = 0; i < 16; i++) hex += (i === 4 || i === 6 || i === 8 || i === 10 ? '-' : '') + HEX[bytes[i]!];
  return hex;
}

/** The one answer for a client-chosen id that cannot be used: malformed, not v7, or taken by anyone. */
export const UNUSABLE_ID = 'this id cannot be used; send a new UUIDv7 or leave it out';

/**
 * A client-chosen id of a new row: a UUIDv7, lower-cased, so `01A2…` and `01a2…` are one id.
 * Ids are global primary keys; one already taken (in any company) is refused with the same
 * 400 as a malformed one (`unusableId`), so nobody learns whether another company holds it.
 */
export const clientId = () => z.uuid({ version: 'v7', error: UNUSABLE_ID }).toLowerCase();

export const unusableId = (field: string) => badRequest(`${field}: ${UNUSABLE_ID}`);
