import { ROLE_PERMISSIONS } from '../src/kernel/permissions';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, users } from '../src/db/schema';
import { db, makeCompany, makeDepartment, makeSession, makeUser, PASSWORD } from './helpers/factories';
import { call, loginAs, ORIGIN } from './helpers/http';

const userRow = async (userId: string) => (await db().query.users.findFirst({ where: eq(users.id, userId) }))!;

describe('Login', () => {
  it('sets an HttpOnly, SameSite=Lax Service.Cookie and returns the user id and expiry', async () => {
    const company = await makeCompany();
    const user = await makeUser(company);
    const before = Date.now();
    const res = await call('POST', '/api/Account/Login', { body: { email: user.email, password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['expiresAt', 'userId']);
    expect(res.json.userId).toBe(user.userId);
    const ttl = Date.parse(res.json.expiresAt) - before;
    expect(ttl).toBeGreaterThan(11.9 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(12 * 3600_000 + 5000);
    const cookie = res.headers.get('Set-Cookie')!;
    expect(cookie).toMatch(/^Service\.Cookie=[A-Za-z0-9_-]{40,};/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    // Served over http in tests: Secure would make browsers drop the cookie.
    expect(cookie).not.toMatch(/Secure/);
  });

  it('stores only a hash of the session token', async () => {
    const session = await makeSession();
    const token = session.cookie.split('=')[1]!;
    const rows = await db().select().from(sessions).where(eq(sessions.userId, session.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.tokenHash).not.toBe(token);
  });

  it('answers 401 with the same message for a wrong password and an unknown email, and sets no cookie', async () => {
    const company = await makeCompany();
    const user = await makeUser(company);
    const wrong = await call('POST', '/api/Account/Login', {
      body: { email: user.email, password: 'not-the-password' },
    });
    const unknown = await call('POST', '/api/Account/Login', {
      body: { email: 'nobody@test.example', password: PASSWORD },
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ error: 'invalid email or password' });
      expect(res.headers.get('Set-Cookie')).toBeNull();
    }
  });

  it('accepts the email in any case and with surrounding spaces', async () => {
    const company = await makeCompany();
    const user = await makeUser(company);
    const res = await call('POST', '/api/Account/Login', {
      body: { email: `  ${user.email.toUpperCase()} `, password: PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.json.userId).toBe(user.userId);
  });

  it('answers 400 naming the field when the password is missing', async () => {
    const res = await call('POST', '/api/Account/Login', { body: { email: 'a@b.example' } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('password is required');
  });
});

describe('Me, Logout and sessions', () => {
  it('describes the user, company, current department, role and AI switch', async () => {
    const company = await makeCompany('Me GmbH');
    const second = await makeDepartment(company.companyId, 'Aaa first by name');
    const user = await makeUser(company, { role: 'admin', aiSwitch: true });
    const cookie = await loginAs(user.email);
    const res = await call('GET', '/api/Account/Me', { cookie });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      user: { userId: user.userId, email: user.email, name: 'Test User' },
      company: { companyId: company.companyId, name: 'Me GmbH' },
      departmentId: company.departmentId,
      departments: [
        { departmentId: second, name: 'Aaa first by name' },
        { departmentId: company.departmentId, name: 'Sales' },
      ],
      role: 'admin',
      roleName: 'admin',
      languages: [],
      catalogIds: [],
      categoryIds: [],
      channelIds: [],
      permissions: [...ROLE_PERMISSIONS.admin],
      companyCount: 1,
      aiMayEditClassifications: true,
      operator: false,
    });
  });

  it('answers 401 for a missing, tampered or expired session', async () => {
    const session = await makeSession();
    const missing = await call('GET', '/api/Account/Me');
    expect(missing.status).toBe(401);
    expect(missing.json.error).toBe('not logged in');
    const tampered = await call('GET', '/api/Account/Me', { cookie: `${session.cookie}x` });
    expect(tampered.status).toBe(401);
    expect(tampered.json.error).toBe('session expired or invalid');
    await db()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(sessions.userId, session.userId));
    const expired = await call('GET', '/api/Account/Me', { cookie: session.cookie });
    expect(expired.status).toBe(401);
    expect(expired.json.error).toBe('session expired or invalid');
  });

  it('ends the session on logout and clears the cookie', async () => {
    const session = await makeSession();
    const other = await loginAs(session.email);
    const res = await call('POST', '/api/Account/Logout', { cookie: session.cookie, body: {} });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(res.headers.get('Set-Cookie')).toMatch(/^Service\.Cookie=;.*Max-Age=0/);
    const after = await call('GET', '/api/Catalog/GetStats', { cookie: session.cookie });
    expect(after.status).toBe(401);
    expect(after.json.error).toBe('session expired or invalid');
    // Only that session ends: the user's other browser stays logged in.
    const stillIn = await call('GET', '/api/Account/Me', { cookie: other });
    expect(stillIn.status).toBe(200);
    expect(stillIn.json.user.userId).toBe(session.userId);
  });
});

describe('ChangePassword', () => {
  const NEW_PASSWORD = 'a-much-better-password-42';

  it('sets the new password, changes the security stamp and ends every session of the user', async () => {
    const session = await makeSession();
    const second = await loginAs(session.email);
    const stampBefore = (await userRow(session.userId)).securityStamp;
    const res = await call('POST', '/api/Account/ChangePassword', {
      cookie: session.cookie,
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(res.headers.get('Set-Cookie')).toMatch(/^Service\.Cookie=;/);
    expect((await userRow(session.userId)).securityStamp).not.toBe(stampBefore);
    for (const cookie of [session.cookie, second]) {
      const me = await call('GET', '/api/Account/Me', { cookie });
      expect(me.status).toBe(401);
      expect(me.json.error).toBe('session expired or invalid');
    }
    const old = await call('POST', '/api/Account/Login', { body: { email: session.email, password: PASSWORD } });
    expect(old.status).toBe(401);
    const fresh = await call('POST', '/api/Account/Login', { body: { email: session.email, password: NEW_PASSWORD } });
    expect(fresh.status).toBe(200);
  });

  it('refuses a wrong current password or a short new one and changes nothing', async () => {
    const session = await makeSession();
    const before = await userRow(session.userId);
    const wrong = await call('POST', '/api/Account/ChangePassword', {
      cookie: session.cookie,
      body: { currentPassword: 'not-it', newPassword: NEW_PASSWORD },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('currentPassword is not correct');
    const short = await call('POST', '/api/Account/ChangePassword', {
      cookie: session.cookie,
      body: { currentPassword: PASSWORD, newPassword: 'short' },
    });
    expect(short.status).toBe(400);
    expect(short.json.error).toBe('newPassword: newPassword must have at least 12 characters');
    const after = await userRow(session.userId);
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.securityStamp).toBe(before.securityStamp);
    const me = await call('GET', '/api/Account/Me', { cookie: session.cookie });
    expect(me.status).toBe(200);
  });

  it('answers 401 without a session', async () => {
    const res = await call('POST', '/api/Account/ChangePassword', {
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('not logged in');
  });
});

describe('SwitchDepartment', () => {
  it('moves the session to another department of the company', async () => {
    const session = await makeSession();
    const purchasing = await makeDepartment(session.companyId);
    const res = await call('POST', '/api/Account/SwitchDepartment', {
      cookie: session.cookie,
      body: { departmentId: purchasing },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ departmentId: purchasing });
    const me = await call('GET', '/api/Account/Me', { cookie: session.cookie });
    expect(me.json.departmentId).toBe(purchasing);
  });

  it('answers 403 for a department of another company and keeps the current one', async () => {
    const session = await makeSession();
    const other = await makeCompany();
    const res = await call('POST', '/api/Account/SwitchDepartment', {
      cookie: session.cookie,
      body: { departmentId: other.departmentId },
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('departmentId does not name a department of your company');
    const me = await call('GET', '/api/Account/Me', { cookie: session.cookie });
    expect(me.json.departmentId).toBe(session.departmentId);
  });
});

describe('cross-site requests (CSRF)', () => {
  it('refuses a cookie POST from a foreign Origin with 403 and creates nothing', async () => {
    const session = await makeSession();
    const res = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: session.cookie,
      headers: { Origin: 'https://evil.example' },
      body: { departmentId: session.departmentId, name: 'CSRF' },
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('cross-site request refused');
    const list = await call('GET', '/api/Catalog/GetCatalogs', { cookie: session.cookie });
    expect(list.json.items).toEqual([]);
  });

  it('refuses Sec-Fetch-Site: cross-site and a cross-site login', async () => {
    const session = await makeSession();
    const fetchSite = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: session.cookie,
      headers: { 'Sec-Fetch-Site': 'cross-site' },
      body: { departmentId: session.departmentId, name: 'CSRF' },
    });
    expect(fetchSite.status).toBe(403);
    expect(fetchSite.json.error).toBe('cross-site request refused');
    const login = await call('POST', '/api/Account/Login', {
      headers: { Origin: 'https://evil.example' },
      body: { email: session.email, password: PASSWORD },
    });
    expect(login.status).toBe(403);
    expect(login.headers.get('Set-Cookie')).toBeNull();
  });

  it('accepts a POST from the service origin itself', async () => {
    const session = await makeSession();
    const res = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: session.cookie,
      headers: { Origin: ORIGIN, 'Sec-Fetch-Site': 'same-origin' },
      body: { departmentId: session.departmentId, name: 'Same origin' },
    });
    expect(res.status).toBe(200);
    expect(res.json.name).toBe('Same origin');
  });
});
