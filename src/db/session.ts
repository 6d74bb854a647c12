import { type Database, sessionDb } from './client';

/**
 * The HTTP header that carries a D1 bookmark both ways: every answer names the newest bookmark
 * its work saw, and a client that sends it back is served from a copy at least that new
 * (read-your-writes across replicas). The MCP tool results carry it under the same key in `_meta`.
 */
export const BOOKMARK_HEADER = 'x-d1-bookmark';

/** Bookmarks are opaque to us; anything else a client sends is ignored (never passed to D1). */
const BOOKMARK = /^[A-Za-z0-9._:-]{1,200}$/;

export function validBookmark(value: unknown): string | null {
  return typeof value === 'string' && BOOKMARK.test(value) ? value : null;
}

/** The newer of two bookmarks: D1 bookmarks sort lexicographically in commit order. */
export function newerBookmark(a: string | null | undefined, b: string | null | undefined): string | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return a >= b ? a : b;
}

/**
 * The database as one unit of work (a request, a job slice, an MCP message) sees it. `db` reads
 * start on any copy ("first-unconstrained") unless a bookmark says how new the copy must be;
 * `primary()` is for what must be real-time (web sessions, security stamps, revocation, grants)
 * and starts on the primary ("first-primary"). `bookmark()` is the position of `db`'s session:
 * the client's own reads and writes, not the primary's head its security check happened to see
 * (handing that out would make every next read wait for the newest replica or go to the
 * primary). `atLeast` raises the starting point (a bookmark that arrives inside the body, e.g.
 * MCP `_meta`).
 */
export interface DbSession {
  readonly db: Database;
  primary(): Database;
  bookmark(): string | null;
  atLeast(bookmark: string | null | undefined): void;
}

/**
 * The D1 session is opened on first use, so a bookmark learnt after the request started still
 * counts; a later `atLeast` opens a fresh session from the newer position (sessions are cheap).
 */
class LazySession {
  private session?: D1DatabaseSession;
  constructor(
    private readonly d1: D1Database,
    private start: string | null,
  ) {}
  private current(): D1DatabaseSession {
    this.session ??= this.d1.withSession(this.start ?? 'first-unconstrained');
    return this.session;
  }
  atLeast(bookmark: string | null) {
    const newer = newerBookmark(this.getBookmark(), bookmark);
    if (newer === this.getBookmark()) return;
    this.start = newer;
    this.session = undefined;
  }
  prepare(query: string) {
    return this.current().prepare(query);
  }
  batch<T>(statements: D1PreparedStatement[]) {
    return this.current().batch<T>(statements);
  }
  getBookmark(): string | null {
    return newerBookmark(this.session?.getBookmark(), this.start);
  }
}

export function openSession(d1: D1Database, bookmark?: string | null): DbSession {
  const replica = new LazySession(d1, validBookmark(bookmark));
  const db = sessionDb(replica as unknown as D1DatabaseSession);
  let primary: Database | undefined;
  return {
    db,
    primary() {
      primary ??= sessionDb(d1.withSession('first-primary'));
      return primary;
    },
    bookmark: () => replica.getBookmark(),
    atLeast: (next) => replica.atLeast(validBookmark(next)),
  };
}

/** The bookmark of the session behind a drizzle handle (null for a handle on a bare binding). */
export function bookmarkOf(db: Database): string | null {
  const client = db.$client as unknown as { getBookmark?: () => string | null };
  return client.getBookmark?.() ?? null;
}
