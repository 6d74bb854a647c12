import type {
  ClientRegistrationCallbackOptions,
  ClientRegistrationCallbackResult,
} from '@cloudflare/workers-oauth-provider';

const GRANTS = new Set(['authorization_code', 'refresh_token']);

/**
 * Our additions to the library's RFC 7591 checks: docs/spec.md 4 names `client_name` and
 * `redirect_uris`, and docs/spec.md 5.2 rule 3 refuses app-only access, so a client that registers for
 * `client_credentials` (or any grant but code and refresh) is turned away at registration.
 */
export function checkRegistration({
  clientMetadata,
}: ClientRegistrationCallbackOptions): ClientRegistrationCallbackResult | void {
  const name = clientMetadata.client_name;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200) {
    return { description: 'client_name is required: a non-empty string of at most 200 characters' };
  }
  const grants = clientMetadata.grant_types;
  if (grants !== undefined && (!Array.isArray(grants) || grants.some((g) => !GRANTS.has(g as string)))) {
    return {
      description:
        'grant_types may contain only authorization_code and refresh_token; client_credentials is not offered',
    };
  }
}
