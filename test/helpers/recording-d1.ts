/** A statement run through `recordingD1`: its SQL, the values bound to it and, once answered by `all` or `run`, the rows it read. */
export interface RanStatement {
  sql: string;
  params: unknown[];
  rowsRead?: number;
}

/**
 * A D1 binding that records every statement run outside batches (`all` / `run` / `raw` /
 * `first`, with the values bound) and counts round trips (each such call and each `batch`;
 * `prepare` and `bind` are none). Plain JavaScript over any D1 binding: the tests' (through
 * round-trips.ts `countingDb`) and a Node script's local one (bench/scoped-sql.ts).
 */
export function recordingD1(d1: D1Database) {
  const counter = { trips: 0 };
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
            counter.trips++;
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
  const binding = new Proxy(d1, {
    get(target, prop) {
      if (prop === 'prepare') return (query: string) => wrap(target.prepare(query), query);
      if (prop === 'batch')
        return (list: D1PreparedStatement[]) => {
          counter.trips++;
          return target.batch(list.map((s) => real.get(s) ?? s));
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { binding, statements, counter };
}
