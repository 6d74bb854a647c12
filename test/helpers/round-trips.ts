import { env } from 'cloudflare:workers';
import { createDb, type Database } from '../../src/db/client';
import { type RanStatement, recordingD1 } from './recording-d1';

export type { RanStatement } from './recording-d1';

/**
 * A drizzle handle over the test D1 binding that counts round trips: every `batch` and every
 * statement's `all` / `run` / `raw` / `first` is one trip to the database (`prepare` and `bind`
 * are not). Only tests use it, to hold a write to its budget of round trips, and to read the
 * statements a call ran (`statements`, outside batches), e.g. for their query plans.
 */
export function countingDb(): { db: Database; trips: () => number; reset: () => void; statements: RanStatement[] } {
  const { binding, statements, counter } = recordingD1(env.DB);
  return {
    db: createDb(binding),
    trips: () => counter.trips,
    statements,
    reset: () => {
      counter.trips = 0;
      statements.length = 0;
    },
  };
}
