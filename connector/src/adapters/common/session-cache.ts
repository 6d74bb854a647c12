/**
 * Shop sessions kept for the Worker isolate's life, so that each POST /upsert does not sign in
 * again: an adapter is built per request, and a sign-in is one of the slowest calls a shop
 * answers (Vendure's `login` hashes the password with bcrypt: about 1 s on the test machine,
 * as long as the slowest write of a product). A session is reused only by a caller with the
 * same shop URL, user name and password (compared in full, never a prefix or hash of it), so a
 * key with a wrong password never rides on another key's session. Held in memory only, never
 * written anywhere; an adapter that sees the session refused drops it and signs in again.
 */
interface Session {
  secret: string;
  token: string;
}

const sessions = new Map<string, Session>();
/** Enough for every target of one connector; the oldest goes first beyond it. */
const MAX_SESSIONS = 100;

const keyOf = (kind: string, url: string, user: string) => `${kind}\u0000${url}\u0000${user}`;

/** The session token signed in earlier with exactly these credentials, else null. */
export function cachedSession(kind: string, url: string, user: string, secret: string): string | null {
  const held = sessions.get(keyOf(kind, url, user));
  return held && held.secret === secret ? held.token : null;
}

export function keepSession(kind: string, url: string, user: string, secret: string, token: string): void {
  const key = keyOf(kind, url, user);
  sessions.delete(key);
  sessions.set(key, { secret, token });
  if (sessions.size > MAX_SESSIONS) {
    const oldest = sessions.keys().next().value;
    if (oldest !== undefined) sessions.delete(oldest);
  }
}

/** Forgets a session the shop refused (expired, signed out), so the next caller signs in. */
export function dropSession(kind: string, url: string, user: string, token: string): void {
  const key = keyOf(kind, url, user);
  if (sessions.get(key)?.token === token) sessions.delete(key);
}
