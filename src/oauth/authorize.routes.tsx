import { AuthorizationError, authorizationErrorRedirect, type OAuthHelpers } from '@cloudflare/workers-oauth-provider';
import { Hono, type Context } from 'hono';
import { describeAccount, resolveSession } from '../accounts/accounts';
import { sessionToken } from '../accounts/session-auth';
import type { AppEnv } from '../env';
import { AppError, notFound } from '../kernel/app-error';
import { limitBody } from '../http/middleware';
import { agentRefusal, loadAgentAccount } from './agent-account';
import type { AgentProps } from './agent-auth';
import { grantedScopes, parseAuthorization } from './authorize-request';
import { PATHS, mcpResourceOf } from './config';
import { issueCsrf, sameSiteForm } from './csrf';
import { renderPageError, sendPage } from './page-response';
import { ConsentPage } from './pages/consent-page';
import { LoginPage } from './pages/login-page';
import { MessagePage } from './pages/message-page';
import { authorizationServerFor } from './server';
import { signInRoutes } from './sign-in.routes';

function oauthApi(c: Context<AppEnv>): OAuthHelpers {
  const server = authorizationServerFor(new URL(c.req.url));
  if (!server) throw notFound('route');
  return server.getOAuthApi(c.env);
}

async function currentSession(c: Context<AppEnv>) {
  const token = sessionToken(c);
  return token ? resolveSession(c.var.dbSession.primary(), token) : null;
}

/** docs/spec.md 5.2 rule 2 at consent time: the refusal page, and no code. */
async function refusalOf(c: Context<AppEnv>, userId: string): Promise<string | null> {
  const account = await loadAgentAccount(c.var.dbSession.primary(), userId);
  return account ? agentRefusal(account) : 'this account no longer exists';
}

/**
 * `{auth_url}/connect/authorize`: the sign-in page when there is no web session, then the
 * consent page; approving stores the grant and redirects to the client with a code.
 */
export const authorizeRoutes = new Hono<AppEnv>()
  .route('/', signInRoutes)
  .get(PATHS.authorize, async (c) => {
    const oauth = oauthApi(c);
    const parsed = await parseAuthorization(oauth, c.req.raw);
    if (parsed.redirect !== undefined) return c.redirect(parsed.redirect, 302);
    const request = parsed.request;
    const query = new URL(c.req.url).search.slice(1);
    const details = await oauth.describeConsent(request);
    const csrf = issueCsrf(c);
    const session = await currentSession(c);
    if (!session) return sendPage(c, <LoginPage clientName={details.clientName} query={query} csrf={csrf} />);
    const refusal = await refusalOf(c, session.userId);
    if (refusal) {
      return sendPage(
        c,
        <MessagePage
          title="Not permitted"
          message={`You cannot authorize AI agents: ${refusal}.`}
          switchAccount={{ csrf, query }}
        />,
        {
          status: 403,
        },
      );
    }
    const me = await describeAccount(c.var.db, session);
    const consent = await oauth.beginConsent(request);
    const user = {
      userId: me.user.userId,
      email: me.user.email,
      companyName: me.company.name,
      aiMayEditClassifications: me.aiMayEditClassifications,
    };
    return sendPage(
      c,
      <ConsentPage
        clientName={details.clientName}
        redirectHost={details.redirectHost}
        redirectIsLoopback={details.redirectIsLoopback}
        scopes={request.scope}
        handle={consent.handle}
        user={user}
        csrf={csrf}
        query={query}
      />,
      { headers: consent.headers, redirectUri: request.redirectUri },
    );
  })
  .post(PATHS.authorize, sameSiteForm, limitBody, async (c) => {
    const oauth = oauthApi(c);
    const form = await c.req.parseBody({ all: true });
    const session = await currentSession(c);
    if (!session)
      throw new AppError('unauthorized', 'Your sign-in has ended. Go back to the application and start again.');
    if (form.userId !== session.userId) {
      throw new AppError(
        'forbidden',
        'You signed in with another account in the meantime. Go back to the application and start again.',
      );
    }
    const refusal = await refusalOf(c, session.userId);
    if (refusal) throw new AppError('forbidden', `You cannot authorize AI agents: ${refusal}.`);
    const handle = typeof form.handle === 'string' ? form.handle : '';
    try {
      if (form.decision !== 'approve') {
        const denied = await oauth.denyConsent(c.req.raw, handle);
        return new Response(null, { status: 302, headers: denied.headers });
      }
      const approved = await oauth.approveConsent(c.req.raw, handle);
      const scope = grantedScopes(form.scope, approved.request.scope);
      if (!scope.includes('mcp') && !scope.includes('api')) {
        approved.headers.set(
          'Location',
          authorizationErrorRedirect(approved.request, 'access_denied', 'no scope was approved'),
        );
        return new Response(null, { status: 302, headers: approved.headers });
      }
      const account = (await loadAgentAccount(c.var.dbSession.primary(), session.userId))!;
      const client = await oauth.lookupClient(approved.request.clientId);
      const props: AgentProps = {
        userId: session.userId,
        companyId: session.companyId,
        securityStamp: account.securityStamp,
        scopes: scope,
        resource: approved.request.resource ?? mcpResourceOf(new URL(c.req.url).origin),
        clientName: client?.clientName?.trim().slice(0, 200) || undefined,
      };
      const { redirectTo } = await oauth.completeAuthorization({
        request: approved.request,
        userId: session.userId,
        metadata: { companyId: session.companyId },
        scope,
        props,
      });
      approved.headers.set('Location', redirectTo);
      return new Response(null, { status: 302, headers: approved.headers });
    } catch (err) {
      if (err instanceof AuthorizationError) {
        throw new AppError(
          'bad_request',
          'This consent page has expired or was already used. Go back to the application and start again.',
        );
      }
      throw err;
    }
  })
  .onError(renderPageError);
