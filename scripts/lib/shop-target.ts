import { signRequest } from '../../src/sync/protocol/signing';
import type { TargetKind } from '../../src/sync/protocol/target';

/**
 * Points a connector signing key at a real shop (docs/shops.md, "Targets and credentials"):
 * a signed `PUT /target`, as the PIM will send before each run once its connections carry a
 * `shop` (`{ kind, url, credentials, mapping }`). Until then the e2e tests and `npm run dev --
 * --shop <kind>` call this one function; when the PIM sends it itself, they set the
 * connection's `shop` instead and this file goes.
 */
export interface ShopTarget {
  kind: TargetKind;
  url: string;
  credentials: Record<string, string>;
  /** Any part of TargetMapping; the rest comes from the kind's defaults. */
  mapping?: Record<string, unknown>;
}

export interface ConnectorKey {
  keyId: string;
  secret: string;
}

/** The PIM's languages onto the shop's locales: German, English, French. */
export const SHOP_LANGUAGES = {
  vendure: { deu: 'de', eng: 'en', fra: 'fr' },
  medusa: { deu: 'de-DE', eng: 'en-GB', fra: 'fr-FR' },
} as const;

/** A signed call to the connector, as the PIM signs it; answers the status and the body's text. */
export async function signedConnectorCall(
  connectorUrl: string,
  key: ConnectorKey,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: string,
): Promise<{ status: number; text: string }> {
  const url = new URL(connectorUrl + path);
  const headers = await signRequest({
    keyId: key.keyId,
    secret: key.secret,
    method,
    pathWithQuery: url.pathname + url.search,
    body: body ?? '',
  });
  const response = await fetch(url, {
    method,
    body,
    headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) },
  });
  return { status: response.status, text: await response.text() };
}

/** PUT /target for the key, then POST /target/test; throws with the connector's answer when either fails. */
export async function setShopTarget(connectorUrl: string, key: ConnectorKey, target: ShopTarget): Promise<void> {
  const put = await signedConnectorCall(connectorUrl, key, 'PUT', '/target', JSON.stringify(target));
  if (put.status !== 200) throw new Error(`PUT /target: ${put.status} ${put.text}`);
  const probe = await signedConnectorCall(connectorUrl, key, 'POST', '/target/test');
  if (probe.status !== 200) throw new Error(`POST /target/test: ${probe.status} ${probe.text}`);
}
