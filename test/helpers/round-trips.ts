import { env } from 'cloudflare:workers';
import { createDb, type Database } from '../../src/db/client';

/** A statement run through `countingDb`: its SQL, the values bound to it and, once answered by `all` or `run`, the rows it read. */
export interface RanStatement {
  sql: string;
  params: unknown[];
  rowsRead?: number;
}

/**
 * A drizzle handle over the test D1 binding that counts round trips: every `batch` and every
 * statement's `all` / `run` / `raw` / `first` is one trip to the database (`prepare` and `bind`
 * are not). Only tests use it, to hold a write to its budget of round trips, and to read the
 * statements a call ran (`statements`, outside batches), e.g. for their query plans.
 */
export function countingDb(): { db: Database; trips: () => number; reset: () => void; statements: RanStatement[] } {
  let trips = 0;
  const statements: RanStatement[] = [];
  // Each proxy to the D1 statement it wraps: D1's batch wants its own objects, not proxies.
  const real = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement, sql: string, params: unknown[] = []): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== 'function') return value;
        if (prop === 'bind') return (...args: unknown[]) => wrap(value.apply(target, args), sql, args);
        if (prop === 'all' || prop === 'run' || prop === 'raw' || prop === 'first')
          return (...args: unknown[]) => {
            trips++;
            const ran: RanStatement = { sql, params };
            statements.push(ran);
            const answer = value.apply(target, args);
            if (prop !== 'all' && prop !== 'run') return answer;
            return answer.then((result: D1Result) => {
              ran.rowsRead = result.meta.rows_read;
              return result;
            });
          };
        return value.bind(target);
      },
    });
    real.set(proxy, statement);
    return proxy;
  };
  const binding = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === 'prepare') return (query: string) => wrap(target.prepare(query), query);
      if (prop === 'batch')
        return (statements: D1PreparedStatement[]) => {
          trips++;
          return target.batch(statements.map((s) => real.get(s) ?? s));
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    db: createDb(binding),
    trips: () => trips,
    statements,
    reset: () => {
      trips = 0;
      statements.length = 0;
    },
  };
}
