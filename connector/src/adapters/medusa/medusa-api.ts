import { cachedSession, dropSession, keepSession } from '../common/session-cache';
import { TargetError } from '../target-adapter';
import type { TargetHttp } from '../target-http';

/**
 * Medusa v2's Admin REST API through the shared HTTP client: a secret API key as Basic auth
 * (`sk_...:`), or a JWT from `/auth/user/emailpass` as a bearer token. Medusa answers errors as
 * `{ type, message }`; a 400 / 404 / 409 / 422 is the record's problem (`MedusaRefusal`), a
 * 401 / 403 the credentials' (`TargetError`, the whole write stops).
 */
export interface MedusaCredentials {
  apiKey?: string;
  email?: string;
  password?: string;
}

export class MedusaRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface MedusaApi {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
  /**
   * A POST that creates (products, files): sent once, as Medusa may have run it when its answer
   * is lost (`TargetRequest.once`); throws `OutcomeUnknown` then.
   */
  create<T>(path: string, body: unknown): Promise<T>;
  delete<T>(path: string): Promise<T>;
  upload(file: Blob, fileName: string): Promise<{ id: string; url: string }>;
}

type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

/** `?a=1&b=x&b=y`: repeated keys for arrays, as Medusa's query parser (qs) reads them. */
export function query(params: Query): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) search.append(key, v);
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function plainReason(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string' && parsed.message) return parsed.message.slice(0, 500);
  } catch {
    // not JSON: fall through to the status
  }
  return `the shop answered HTTP ${status}`;
}

export function createMedusaApi(baseUrl: string, credentials: MedusaCredentials, http: TargetHttp): MedusaApi {
  const base = baseUrl.replace(/\/+$/, '');
  const email = credentials.email ?? '';
  const password = credentials.password ?? '';
  // A JWT from an earlier request with the same credentials: no second sign-in (common/session-cache.ts).
  let bearer: string | null = email && password ? cachedSession('medusa', base, email, password) : null;

  async function authorization(): Promise<string> {
    if (credentials.apiKey) return `Basic ${btoa(`${credentials.apiKey}:`)}`;
    if (bearer) return bearer;
    if (!credentials.email || !credentials.password) {
      throw new TargetError('Medusa needs a secret API key, or an admin e-mail and password', false);
    }
    const response = await http.send({
      method: 'POST',
      url: `${base}/auth/user/emailpass`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: credentials.email, password: credentials.password }),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new TargetError('Medusa refused the admin e-mail or password', false, response.status);
    }
    const { token } = (await response.json()) as { token?: string };
    if (!token) throw new TargetError('Medusa answered the sign-in without a token', false);
    bearer = `Bearer ${token}`;
    keepSession('medusa', base, email, password, bearer);
    return bearer;
  }

  async function send<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: BodyInit,
    json = true,
    once = false,
  ): Promise<T> {
    const signedIn = bearer;
    const headers: Record<string, string> = { authorization: await authorization(), accept: 'application/json' };
    if (json && body !== undefined) headers['content-type'] = 'application/json';
    const response = await http.send({ method, url: `${base}${path}`, headers, body, once });
    const text = await response.text();
    if (response.status === 401 && signedIn && !credentials.apiKey) {
      // A session kept from an earlier request may have expired: signed in once more, then sent again.
      dropSession('medusa', base, email, signedIn);
      bearer = null;
      return send(method, path, body, json, once);
    }
    if (response.status === 401 || response.status === 403) {
      throw new TargetError('Medusa refused the credentials (HTTP 401/403)', false, response.status);
    }
    if (!response.ok) throw new MedusaRefusal(plainReason(response.status, text), response.status);
    return (text ? JSON.parse(text) : {}) as T;
  }

  return {
    get: (path) => send('GET', path),
    post: (path, body) => send('POST', path, JSON.stringify(body)),
    create: (path, body) => send('POST', path, JSON.stringify(body), true, true),
    delete: (path) => send('DELETE', path),
    async upload(file, fileName) {
      const form = new FormData();
      form.append('files', file, fileName);
      const { files } = await send<{ files: { id: string; url: string }[] }>(
        'POST',
        '/admin/uploads',
        form,
        false,
        true,
      );
      const uploaded = files[0];
      if (!uploaded) throw new MedusaRefusal('Medusa stored no file for the upload', 500);
      return uploaded;
    },
  };
}
