import {
  GrantType,
  OAuthError,
  type TokenExchangeCallbackOptions,
  type TokenExchangeCallbackResult,
} from '@cloudflare/workers-oauth-provider';
import { databaseOf } from '../db/binding';
import { openSession } from '../db/session';
import type { Bindings } from '../env';
import { agentRefusal, loadAgentAccount } from './agent-account';
import { AgentProps } from './agent-auth';
import { REFRESH_TOKEN_TTL_SECONDS } from './config';

/**
 * Runs at every code exchange and refresh. The library would issue a refresh token for every
 * grant; docs/spec.md 5.2 issues one only when `offline_access` was granted, so the code exchange
 * sets the refresh lifetime to 0 otherwise. Both exchanges re-check the user: a changed
 * security stamp or an account that is no longer permitted ends the grant (`invalid_grant`
 * makes the library revoke it), so a refresh token cannot outlive a revocation.
 */
export async function applyGrantPolicy(
  options: TokenExchangeCallbackOptions<Bindings>,
): Promise<TokenExchangeCallbackResult | void> {
  if (options.grantType !== GrantType.AUTHORIZATION_CODE && options.grantType !== GrantType.REFRESH_TOKEN) {
    throw new OAuthError('unsupported_grant_type', {
      description: 'only authorization_code and refresh_token are offered',
    });
  }
  const props = AgentProps.safeParse(options.props);
  if (!props.success) throw new OAuthError('invalid_grant', { description: 'grant is not valid' });
  const account = await loadAgentAccount(openSession(databaseOf(options.env)).primary(), options.userId);
  if (!account || account.securityStamp !== props.data.securityStamp) {
    throw new OAuthError('invalid_grant', { description: 'the grant was revoked' });
  }
  const refusal = agentRefusal(account);
  if (refusal || account.memberships[0]!.companyId !== props.data.companyId) {
    throw new OAuthError('invalid_grant', { description: refusal ?? 'the account changed company' });
  }
  if (options.grantType === GrantType.AUTHORIZATION_CODE) {
    return { refreshTokenTTL: options.scope.includes('offline_access') ? REFRESH_TOKEN_TTL_SECONDS : 0 };
  }
}
