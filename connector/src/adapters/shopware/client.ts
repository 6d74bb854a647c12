import { TargetError } from '../target-adapter';
import type { TargetHttp } from '../target-http';

/**
 * The Shopware 6 Admin API over the shared `TargetHttp` (retries, 429 / Retry-After, timeouts):
 * OAuth client credentials (`POST /api/oauth/token`), the bearer kept until shortly before it
 * expires and fetched again after a 401 (an expired or revoked token), JSON in and out (a
 * file's bytes in for an upload).
 */
export interface ShopwareCredentials {
  clientId: string;
  clientSecret: string;
}

/** One error of Shopware's JSON:API error list (`{"errors":[...]}`). */
export interface ShopwareError {
  status?: string;
  code?: string;
  title?: string;
  detail?: string;
  source?: { pointer?: string };
}

export interface ShopwareResponse {
  status: number;
  body: unknown;
}

export interface Criteria {
  page?: number;
  limit?: number;
  filter?: unknown[];
  associations?: Record<string, unknown>;
  includes?: Record<string, string[]>;
  ids?: string[];
  'total-count-mode'?: 'none' | 'exact' | 'next-pages';
}

const EXPIRY_MARGIN_MS = 30_000;
const PAGE = 500;

export class ShopwareClient {
  private token: { value: string; expiresAt: number } | null = null;

  constructor(
    private readonly http: TargetHttp,
    private readonly baseUrl: string,
    private readonly credentials: ShopwareCredentials,
    private readonly now: () => number = Date.now,
  ) {}

  /** Sends one Admin API request (`path` below `/api`); answers the status and the parsed body. */
  request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ShopwareResponse> {
    if (body === undefined) return this.send(method, path, null, null);
    return this.send(method, path, 'application/json', JSON.stringify(body));
  }

  /** Posts a file's bytes as the request body (`_action/media/{id}/upload`, `application/octet-stream`). */
  upload(path: string, bytes: ArrayBuffer): Promise<ShopwareResponse> {
    return this.send('POST', path, 'application/octet-stream', bytes);
  }

  private async send(
    method: 'GET' | 'POST',
    path: string,
    contentType: string | null,
    body: string | ArrayBuffer | null,
  ): Promise<ShopwareResponse> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.bearer();
      const response = await this.http.send({
        method,
        url: `${this.baseUrl}/api${path}`,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: 'application/json',
          ...(contentType ? { 'Content-Type': contentType } : {}),
        },
        body,
      });
      if (response.status === 401 && attempt === 0) {
        await response.body?.cancel().catch(() => undefined);
        this.token = null;
        continue;
      }
      if (response.status === 401 || response.status === 403) {
        await response.body?.cancel().catch(() => undefined);
        throw new TargetError(
          'the shop refused the integration’s access (check its permissions)',
          false,
          response.status,
        );
      }
      const text = await response.text();
      return { status: response.status, body: text ? safeJson(text) : null };
    }
  }

  /** One page of `POST /api/search/{entity}` (entity in the URL's kebab-case). */
  async search<T>(entity: string, criteria: Criteria): Promise<T[]> {
    const { status, body } = await this.request('POST', `/search/${entity.replaceAll('_', '-')}`, criteria);
    if (status !== 200)
      throw new TargetError(`the shop refused a search for ${entity} (HTTP ${status})`, false, status);
    return ((body as { data?: T[] } | null)?.data ?? []) as T[];
  }

  /** Every page of a search (lookup tables: taxes, units, manufacturers, languages). */
  async searchAll<T>(entity: string, criteria: Criteria = {}): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; ; page++) {
      const rows = await this.search<T>(entity, { ...criteria, page, limit: PAGE });
      out.push(...rows);
      if (rows.length < PAGE) return out;
    }
  }

  private async bearer(): Promise<string> {
    if (this.token && this.token.expiresAt - EXPIRY_MARGIN_MS > this.now()) return this.token.value;
    const response = await this.http.send({
      method: 'POST',
      url: `${this.baseUrl}/api/oauth/token`,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
      }),
    });
    const text = await response.text();
    if (response.status === 400 || response.status === 401 || response.status === 403) {
      throw new TargetError('the shop refused the client id or secret', false, response.status);
    }
    const body = text ? (safeJson(text) as { access_token?: unknown; expires_in?: unknown } | null) : null;
    if (response.status !== 200 || typeof body?.access_token !== 'string') {
      throw new TargetError(`the shop's token endpoint answered HTTP ${response.status}`, false, response.status);
    }
    const seconds = typeof body.expires_in === 'number' ? body.expires_in : 600;
    this.token = { value: body.access_token, expiresAt: this.now() + seconds * 1000 };
    return this.token.value;
  }
}

/** Shopware's error list of an answer, or an empty list. */
export function shopwareErrors(body: unknown): ShopwareError[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) ? (errors as ShopwareError[]) : [];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
