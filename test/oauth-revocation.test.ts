import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { memberships, users } from '../src/db/schema';
import { db, makeCompany, makeUser, PASSWORD } from './helpers/factories';
import { call, loginAs } from './helpers/http';
import { joinSecondCompany, makeAgentUser, refresh, send, tokensFor } from './oauth-helpers';

async function grantKeys(userId: string) {
  return (await env.OAUTH_KV.list({ prefix: `grant:${userId}:` })).keys;
}

describe('real-time revocation', () => {
  it('refuses every token of a user who changed the password, and deletes the grants', async () => {
    const user = await makeAgentUser();
    const tokens = await tokensFor(user);
    expect((await send('GET', '/api/ai/GetStats', { token: tokens.access_token })).status).toBe(200);
    expect(await grantKeys(user.userId)).toHaveLength(1);

    const change = await call('POST', '/api/Account/ChangePassword', {
      cookie: user.session,
      body: { currentPassword: PASSWORD, newPassword: 'a-brand-new-password-2' },
    });
    expect(change.status, change.text).toBe(200);

    const res = await send('GET', '/api/ai/GetStats', { token: tokens.access_token });
    expect(res.status).toBe(401);
    expect(res.json.error).toMatch(/invalid, expired or revoked|revoked/);
    expect(res.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
    const renewed = await refresh(tokens.clientId, tokens.refresh_token!);
    expect(renewed.status).toBe(400);
    expect(renewed.json.error).toBe('invalid_grant');
    expect(await grantKeys(user.userId)).toHaveLength(0);
  });

  it('refuses a token whose stamp changed even while its KV record still exists', async () => {
    // What a KV location that has not yet seen the grant deletion would still serve: the token
    // record is intact, only the stamp in D1 changed. The D1 check alone must refuse it.
    const user = await makeAgentUser();
    const tokens = await tokensFor(user);
    await db().update(users).set({ securityStamp: crypto.randomUUID() }).where(eq(users.id, user.userId));
    expect(await grantKeys(user.userId)).toHaveLength(1);
    const res = await send('GET', '/api/ai/GetStats', { token: tokens.access_token });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('token revoked; authorize again');
    expect(res.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
    const renewed = await refresh(tokens.clientId, tokens.refresh_token!);
    expect(renewed.status).toBe(400);
    expect(renewed.json.error).toBe('invalid_grant');
  });

  it('refuses the tokens of a user whose AI access an admin revoked, and deletes the grants', async () => {
    const company = await makeCompany();
    const admin = await makeUser(company, { role: 'admin' });
    const user = await makeUser(company, { aiSwitch: true });
    const tokens = await tokensFor({ session: await loginAs(user.email) });
    const revoke = await call('POST', '/api/Account/RevokeAiAccess', {
      cookie: await loginAs(admin.email),
      body: { userId: user.userId },
    });
    expect(revoke.status, revoke.text).toBe(200);
    expect(revoke.json).toEqual({ userId: user.userId, revoked: true });
    expect(await grantKeys(user.userId)).toHaveLength(0);
    const res = await send('GET', '/api/ai/GetStats', { token: tokens.access_token });
    expect(res.status).toBe(401);
    const renewed = await refresh(tokens.clientId, tokens.refresh_token!);
    expect(renewed.status).toBe(400);
  });

  it("keeps the user's web session when an admin revokes AI access", async () => {
    const company = await makeCompany();
    const admin = await makeUser(company, { role: 'admin' });
    const user = await makeUser(company);
    const session = await loginAs(user.email);
    await call('POST', '/api/Account/RevokeAiAccess', {
      cookie: await loginAs(admin.email),
      body: { userId: user.userId },
    });
    const me = await call('GET', '/api/Account/Me', { cookie: session });
    expect(me.status).toBe(200);
    expect(me.json.user.userId).toBe(user.userId);
  });

  it('lets only an admin of the same company revoke AI access', async () => {
    const company = await makeCompany();
    const editor = await makeUser(company);
    const target = await makeUser(company);
    const foreignAdmin = await makeUser(await makeCompany(), { role: 'admin' });
    const byEditor = await call('POST', '/api/Account/RevokeAiAccess', {
      cookie: await loginAs(editor.email),
      body: { userId: target.userId },
    });
    expect(byEditor.status).toBe(403);
    expect(byEditor.json.error).toBe('only a company admin may do this');
    const byForeign = await call('POST', '/api/Account/RevokeAiAccess', {
      cookie: await loginAs(foreignAdmin.email),
      body: { userId: target.userId },
    });
    expect(byForeign.status).toBe(404);
    expect(byForeign.json.error).toBe('user not found');
    const malformed = await call('POST', '/api/Account/RevokeAiAccess', {
      cookie: await loginAs(foreignAdmin.email),
      body: { userId: 'me' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toMatch(/userId/);
    const anonymous = await call('POST', '/api/Account/RevokeAiAccess', { body: { userId: target.userId } });
    expect(anonymous.status).toBe(401);
  });
});

describe('accounts that change after consent (rules 1 and 2 at every use)', () => {
  it('answers 403 once the account became an admin, and ends its refresh', async () => {
    const user = await makeAgentUser();
    const tokens = await tokensFor(user);
    await db().update(memberships).set({ role: 'admin' }).where(eq(memberships.userId, user.userId));
    const res = await send('GET', '/api/ai/GetStats', { token: tokens.access_token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('administrator accounts cannot be used by AI agents');
    const renewed = await refresh(tokens.clientId, tokens.refresh_token!);
    expect(renewed.status).toBe(400);
    expect(renewed.json.error).toBe('invalid_grant');
  });

  it('answers 403 once the account belongs to a second company', async () => {
    const user = await makeAgentUser();
    const tokens = await tokensFor(user);
    await joinSecondCompany(user.userId);
    const res = await send('GET', '/api/ai/GetStats', { token: tokens.access_token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('accounts that belong to more than one company cannot be used by AI agents');
  });
});

describe('SetAiSwitch', () => {
  it('lets an admin of the company set the switch, and nobody else', async () => {
    const company = await makeCompany();
    const admin = await makeUser(company, { role: 'admin' });
    const user = await makeUser(company);
    const adminSession = await loginAs(admin.email);
    const on = await call('POST', '/api/Account/SetAiSwitch', {
      cookie: adminSession,
      body: { userId: user.userId, enabled: true },
    });
    expect(on.status, on.text).toBe(200);
    expect(on.json).toEqual({ userId: user.userId, aiMayEditClassifications: true });
    const me = await call('GET', '/api/Account/Me', { cookie: await loginAs(user.email) });
    expect(me.json.aiMayEditClassifications).toBe(true);

    const byEditor = await call('POST', '/api/Account/SetAiSwitch', {
      cookie: await loginAs(user.email),
      body: { userId: user.userId, enabled: false },
    });
    expect(byEditor.status).toBe(403);
    const foreign = await makeUser(await makeCompany());
    const other = await call('POST', '/api/Account/SetAiSwitch', {
      cookie: adminSession,
      body: { userId: foreign.userId, enabled: true },
    });
    expect(other.status).toBe(404);
    const bad = await call('POST', '/api/Account/SetAiSwitch', {
      cookie: adminSession,
      body: { userId: user.userId, enabled: 'yes' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/enabled/);
  });
});
