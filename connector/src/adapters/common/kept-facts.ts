/**
 * What an adapter looks up about a shop rather than about a record (its channel, tax
 * categories, manufacturers), kept for the Worker isolate's life so that each POST /upsert does
 * not ask again: an adapter is built per request. Kept apart per adapter kind, shop URL and
 * user, and reused only by a caller with the same secret (compared in full, as
 * session-cache.ts does). The Medusa adapter keeps its facts here (medusa/medusa-facts.ts says
 * what they are), and so does the Vendure adapter. A caller forgets them (`forgetKeptFacts`) when the shop
 * refused something they may have named, so the next request reads them again.
 */
interface Held {
  secret: string;
  facts: unknown;
}

const shops = new Map<string, Held>();
/** As many shops as the session cache keeps; the oldest goes first beyond it. */
const MAX_SHOPS = 100;

const keyOf = (kind: string, url: string, user: string) => `${kind}\u0000${url}\u0000${user}`;

/** The facts kept for this shop and credential, or `empty()` kept from now on (the first time, or after a forget). */
export function keptFacts<T>(kind: string, url: string, user: string, secret: string, empty: () => T): T {
  const key = keyOf(kind, url, user);
  const held = shops.get(key);
  if (held && held.secret === secret) return held.facts as T;
  const facts = empty();
  shops.delete(key);
  shops.set(key, { secret, facts });
  if (shops.size > MAX_SHOPS) {
    const oldest = shops.keys().next().value;
    if (oldest !== undefined) shops.delete(oldest);
  }
  return facts;
}

/** Drops these kept facts: the next `keptFacts` for the shop starts empty. */
export function forgetKeptFacts(kind: string, url: string, user: string, facts: unknown): void {
  const key = keyOf(kind, url, user);
  if (shops.get(key)?.facts === facts) shops.delete(key);
}
