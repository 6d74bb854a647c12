/**
 * The user's part of the OAuth code flow, done over plain HTTP the way a browser would: sign in
 * (web session cookie), open the authorization URL, approve on the consent page, follow the
 * redirect. Used by the MCP e2e tests (as the SDK client's "browser") and by the conformance
 * runner to get a token for a demo account. Works against `npm run dev` and the e2e server.
 */
import { createHash, randomBytes } from 'node:crypto';

const cookiePairs = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='));

/** Signs `email` in, approves the authorization request at `authorizationUrl`, returns the redirect URL (with the code). */
export async function approveAuthorization(authorizationUrl: URL, email: string, password: string): Promise<URL> {
  const origin = authorizationUrl.origin;
  const login = await fetch(`${origin}/api/Account/Login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (login.status !== 200) throw new Error(`sign-in of ${email} failed: ${login.status} ${await login.text()}`);
  const session = cookiePairs(login);
  const page = await fetch(authorizationUrl, { headers: { Cookie: session.join('; ') }, redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${html.slice(0, 300)}`);
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1];
  const handle = field('handle');
  const userId = field('userId');
  if (!handle || !userId) throw new Error('consent page has no approval form');
  const form = new URLSearchParams({ handle, userId, decision: 'approve' });
  for (const scope of (authorizationUrl.searchParams.get('scope') ?? 'mcp').split(' ')) form.append('scope', scope);
  const approved = await fetch(`${origin}/connect/authorize`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: origin,
      Cookie: [...session, ...cookiePairs(page)].join('; '),
    },
    body: form,
    redirect: 'manual',
  });
  const location = approved.headers.get('Location');
  if (approved.status !== 302 || !location)
    throw new Error(`approval failed: ${approved.status} ${await approved.text()}`);
  return new URL(location);
}

export interface Tokens {
  accessToken: string;
  refreshToken?: string;
  clientId: string;
  tokenEndpoint: string;
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');

/**
 * A token for {mcp_url} through the whole standard flow: discovery from the protected-resource
 * metadata, dynamic registration, PKCE S256, consent as `email`, code exchange.
 */
export async function tokenForUser(
  mcpUrl: string,
  email: string,
  password: string,
  scope = 'mcp offline_access',
): Promise<Tokens> {
  const origin = new URL(mcpUrl).origin;
  const resource = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as {
    resource: string;
    authorization_servers: string[];
  };
  const issuer = resource.authorization_servers[0] as string;
  const as = (await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json()) as Record<string, string>;
  const redirectUri = 'http://127.0.0.1:45999/callback';
  const registration = await fetch(as.registration_endpoint!, {
    method: 'POST',
    // A distinct client IP per run keeps this clear of the 5-registrations-per-hour limit.
    headers: {
      'Content-Type': 'application/json',
      'CF-Connecting-IP': `10.99.${randomBytes(1)[0]}.${randomBytes(1)[0]}`,
    },
    body: JSON.stringify({
      client_name: 'MCP conformance runner',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
    }),
  });
  if (registration.status !== 201)
    throw new Error(`registration failed: ${registration.status} ${await registration.text()}`);
  const { client_id: clientId } = (await registration.json()) as { client_id: string };
  const verifier = b64url(randomBytes(32));
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    state: b64url(randomBytes(8)),
    resource: resource.resource,
    code_challenge: b64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  }).toString();
  const code = (await approveAuthorization(url, email, password)).searchParams.get('code');
  const exchange = await fetch(as.token_endpoint!, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
      resource: resource.resource,
    }),
  });
  const tokens = (await exchange.json()) as { access_token: string; refresh_token?: string };
  if (exchange.status !== 200) throw new Error(`code exchange failed: ${exchange.status} ${JSON.stringify(tokens)}`);
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    clientId,
    tokenEndpoint: as.token_endpoint!,
  };
}

/** Trades the refresh token for a new access token (the refresh token rotates). */
export async function refreshTokens(tokens: Tokens): Promise<Tokens> {
  if (!tokens.refreshToken) throw new Error('no refresh token to renew the access token with');
  const res = await fetch(tokens.tokenEndpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: tokens.refreshToken,
      client_id: tokens.clientId,
    }),
  });
  const body = (await res.json()) as { access_token: string; refresh_token?: string };
  if (res.status !== 200) throw new Error(`refresh failed: ${res.status} ${JSON.stringify(body)}`);
  return { ...tokens, accessToken: body.access_token, refreshToken: body.refresh_token ?? tokens.refreshToken };
}

/** `npx tsx scripts/conformance-oauth.ts [email] [password]`: prints an access token for {mcp_url} (for curl). */
if (import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1] ?? '').href) {
  const mcpUrl = process.env.MCP_URL ?? 'http://127.0.0.1:8787/mcp';
  const tokens = await tokenForUser(
    mcpUrl,
    process.argv[2] ?? 'editor@demo.test',
    process.argv[3] ?? 'demo-password-1',
  );
  console.log(tokens.accessToken);
}
