import { signRequest } from '../../src/sync/protocol/signing';

/** One signed connector request. */
export interface SignedCliRequest {
  method: string;
  url: URL;
  body: string | undefined;
  headers: Record<string, string>;
}

/**
 * Reads `METHOD PATH [BODY]` from the command line (default `GET /status`) and signs the
 * request for the connector at CONNECTOR_URL (default http://127.0.0.1:8788) with
 * CONNECTOR_KEY_ID (default demo) and CONNECTOR_SECRET (default the local demo secret).
 * Shared by `npm run connector:call` (sends it) and `npm run sync:curl` (prints it as curl).
 */
export async function signedRequestFromArgs(args = process.argv.slice(2)): Promise<SignedCliRequest> {
  const [method = 'GET', path = '/status', body] = args;
  const base = new URL(process.env.CONNECTOR_URL ?? 'http://127.0.0.1:8788');
  const url = new URL(base.pathname.replace(/\/$/, '') + path, base);
  const signed = await signRequest({
    keyId: process.env.CONNECTOR_KEY_ID ?? 'demo',
    secret: process.env.CONNECTOR_SECRET ?? 'demo-connector-secret-1',
    method,
    pathWithQuery: url.pathname + url.search,
    body: body ?? '',
  });
  const headers: Record<string, string> = { ...signed };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return { method, url, body, headers };
}
