// agent-login.mjs: register, sign in through the browser, get tokens, call the agent API.
// Usage: node examples/agent-login.mjs [base-url]   (Node 20+, no dependencies)
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

const BASE = process.argv[2] ?? 'http://127.0.0.1:8787';
const REDIRECT = 'http://127.0.0.1:8976/callback';
const b64url = (buf) => buf.toString('base64url');

// 1. Discover: the 401 of the agent surface names the resource metadata, which names the server.
const challenge = await fetch(`${BASE}/api/ai/GetStats`);
const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge.headers.get('www-authenticate'))[1];
const { resource, authorization_servers } = await (await fetch(metadataUrl)).json();
const as = await (await fetch(`${authorization_servers[0]}/.well-known/oauth-authorization-server`)).json();

// 2. Register a public client (no secret; PKCE protects the code).
const client = await (
  await fetch(as.registration_endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'My agent', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  })
).json();

// 3. Authorize with PKCE S256: the user signs in and approves in the browser.
const verifier = b64url(randomBytes(32));
const state = b64url(randomBytes(16));
const url = new URL(as.authorization_endpoint);
url.search = new URLSearchParams({
  response_type: 'code',
  client_id: client.client_id,
  redirect_uri: REDIRECT,
  scope: 'api mcp offline_access',
  state,
  resource,
  code_challenge: b64url(createHash('sha256').update(verifier).digest()),
  code_challenge_method: 'S256',
});
console.log(`Open this URL, sign in (e.g. editor@demo.test / demo-password-1) and click Allow:\n\n${url}\n`);
const code = await new Promise((resolve, reject) => {
  const server = createServer((req, res) => {
    const params = new URL(req.url, REDIRECT).searchParams;
    res.end('You can close this window.');
    server.close();
    if (params.get('state') !== state) reject(new Error('state mismatch'));
    else if (params.get('error')) reject(new Error(`${params.get('error')}: ${params.get('error_description') ?? ''}`));
    else resolve(params.get('code'));
  }).listen(8976, '127.0.0.1');
});

// 4. Exchange the code.
const tokens = await (
  await fetch(as.token_endpoint, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.client_id, code_verifier: verifier, resource }),
  })
).json();
console.log('tokens:', { ...tokens, access_token: `${tokens.access_token.slice(0, 12)}...` });

// 5. Call the agent surface.
const stats = await fetch(`${BASE}/api/ai/GetStats`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
console.log('GetStats:', stats.status, await stats.json());

// 6. Headless from here on: renew with the refresh token (it rotates; keep the new one).
const renewed = await (
  await fetch(as.token_endpoint, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id }),
  })
).json();
console.log('refreshed: expires_in', renewed.expires_in, 'new refresh token:', renewed.refresh_token !== tokens.refresh_token);
