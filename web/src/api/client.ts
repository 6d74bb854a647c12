import { BOOKMARK_HEADER, bookmarkHeaders, noteBookmark } from './bookmark';
import type { BodyOf, GetPath, GetResult, PostPath, PostResult, QueryOf } from './operations';

/**
 * The one door to the REST API (docs/design.md section 3): JSON in and out, the session cookie
 * travels by itself (same origin). Every failure becomes an `ApiError` carrying the HTTP status
 * and the API's `{error}` message, so screens can show it where it happened. Paths, queries,
 * bodies and results are typed from the generated OpenAPI types (`operations.ts`, docs/web.md).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** True when the server answered "route not found": the operation does not exist on this server yet. */
    readonly unsupported = false,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Listener = () => void;
const expiryListeners = new Set<Listener>();

/** Called on every 401 of an authenticated call: the session has ended (the UI asks to sign in again). */
export function onSessionExpired(listener: Listener): () => void {
  expiryListeners.add(listener);
  return () => expiryListeners.delete(listener);
}

type Query = Record<string, string | number | boolean | null | undefined>;

/** Builds `/api/{path}?query`, leaving out empty parameters. */
function apiUrl(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return `/api/${path}${qs ? `?${qs}` : ''}`;
}

async function toError(res: Response): Promise<ApiError> {
  let message = '';
  try {
    const body = (await res.json()) as { error?: unknown };
    if (typeof body.error === 'string') message = body.error;
  } catch {
    // not JSON (a proxy page, a crash): the status alone must do
  }
  const unsupported = res.status === 404 && message === 'route not found';
  return new ApiError(res.status, message, unsupported);
}

async function send<T>(path: string, init: RequestInit, quietAuth: boolean): Promise<T> {
  let res: Response;
  try {
    const headers = { ...bookmarkHeaders(), ...(init.headers as Record<string, string> | undefined) };
    res = await fetch(path, { credentials: 'same-origin', ...init, headers });
  } catch {
    throw new ApiError(0, 'network');
  }
  noteBookmark(res.headers.get(BOOKMARK_HEADER));
  if (!res.ok) {
    const error = await toError(res);
    if (res.status === 401 && !quietAuth) for (const listener of expiryListeners) listener();
    throw error;
  }
  const type = res.headers.get('Content-Type') ?? '';
  return (type.includes('application/json') ? await res.json() : await res.text()) as T;
}

export interface CallOptions {
  /** Do not treat a 401 as an expired session (sign-in and the first "who am I"). */
  quietAuth?: boolean;
  signal?: AbortSignal;
}

/**
 * A GET. Query parameters are checked by name against the operation's; their values travel as
 * text (lists comma-separated, empty ones left out), and the API parses and names a bad one.
 */
export function apiGet<P extends GetPath>(
  path: P,
  query?: { [K in keyof QueryOf<P>]?: QueryOf<P>[K] | string | number | boolean | null },
  options: CallOptions = {},
): Promise<GetResult<P>> {
  return send(apiUrl(path, query as Query), { method: 'GET', signal: options.signal }, options.quietAuth ?? false);
}

/** A POST with a JSON body. Writes go through `mutations.ts`, never from a screen directly. */
export function apiPost<P extends PostPath>(
  path: P,
  body: BodyOf<P>,
  options: CallOptions = {},
): Promise<PostResult<P>> {
  return send(
    apiUrl(path),
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: options.signal,
    },
    options.quietAuth ?? false,
  );
}

/** Raw-body upload (Media/Upload takes the file itself with its own Content-Type). */
export function apiUpload<P extends PostPath>(path: P, query: Query, file: Blob): Promise<PostResult<P>> {
  return send(
    apiUrl(path, query),
    { method: 'POST', headers: { 'Content-Type': file.type || 'application/octet-stream' }, body: file },
    false,
  );
}
