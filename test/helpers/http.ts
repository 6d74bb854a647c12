import { exports } from 'cloudflare:workers';
import { PASSWORD } from './factories';

export const ORIGIN = 'http://pim.test';

export interface CallOptions {
  cookie?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Calls the Worker the way a client would. */
export async function call(method: 'GET' | 'POST', path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.Cookie = options.cookie;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await exports.default.fetch(new Request(`${ORIGIN}${path}`, { method, headers, body }));
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** Logs in and returns the `Service.Cookie=...` pair for later calls. */
export async function loginAs(email: string, password = PASSWORD): Promise<string> {
  const res = await call('POST', '/api/Account/Login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  const setCookie = res.headers.get('Set-Cookie') ?? '';
  return setCookie.split(';')[0]!;
}

/** POST `/api/${path}` with a session cookie and a JSON body. */
export const postApi = (cookie: string, path: string, body: unknown) => call('POST', `/api/${path}`, { cookie, body });

/** GET `/api/${path}` with a session cookie. */
export const getApi = (cookie: string, path: string) => call('GET', `/api/${path}`, { cookie });
