import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signInThrottle } from '../src/db/schema';
import { FREE_TRIES } from '../src/accounts/sign-in-throttle';
import { RATE_LIMITS } from '../src/http/rate-limit';
import { db, makeCompany, makeUser, PASSWORD } from './helpers/factories';
import { call, loginAs } from './helpers/http';

/** A fresh client IP per test: the per-IP budget is shared by everything from one address. */
const freshIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

const login = (email: string, password: string, ip: string) =>
  call('POST', '/api/Account/Login', { body: { email, password }, headers: { 'CF-Connecting-IP': ip } });

/** What an attacker can compare: status, body and which headers are set. */
const shape = (res: Awaited<ReturnType<typeof call>>) => ({
  status: res.status,
  body: res.json,
  retryAfter: res.headers.has('Retry-After'),
  cookie: res.headers.has('Set-Cookie'),
});

/** Lets the pair's current wait run out, as if time had passed. */
const endWait = () =>
  db().update(signInThrottle).set({ nextAllowedAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ','now','-1 second')` });

describe('sign-in throttle per (email, IP) (docs/reliability.md)', () => {
  it(`refuses even the right password after ${FREE_TRIES} wrong ones from one IP, exactly as for an unknown email`, async () => {
    const user = await makeUser(await makeCompany());
    const unknown = `nobody-${crypto.randomUUID()}@test.example`;
    const ip = freshIp();
    for (let i = 0; i < FREE_TRIES; i++) {
      const known = await login(user.email, `wrong-${i}`, ip);
      const other = await login(unknown, `wrong-${i}`, ip);
      expect(shape(known)).toEqual({
        status: 401,
        body: { error: 'invalid email or password', code: 'unauthorized' },
        retryAfter: false,
        cookie: false,
      });
      expect(shape(other)).toEqual(shape(known));
    }
    const known = await login(user.email, PASSWORD, ip);
    const other = await login(unknown, PASSWORD, ip);
    expect(shape(known)).toEqual({
      status: 429,
      body: { error: 'too many failed sign-in attempts; try again later', code: 'rate_limited' },
      retryAfter: true,
      cookie: false,
    });
    expect(shape(other)).toEqual(shape(known));
    expect(Number(known.headers.get('Retry-After'))).toBeGreaterThan(10);
    expect(Number(known.headers.get('Retry-After'))).toBeLessThanOrEqual(15);
    expect(known.headers.get('Retry-After')).toBe(other.headers.get('Retry-After'));
  });

  it('does not hold up the same account from another IP (no lock-out by knowing an email)', async () => {
    const user = await makeUser(await makeCompany());
    const attacker = freshIp();
    for (let i = 0; i <= FREE_TRIES; i++) await login(user.email, 'wrong', attacker);
    expect((await login(user.email, PASSWORD, attacker)).status).toBe(429);
    expect((await login(user.email, PASSWORD, freshIp())).status).toBe(200);
  });

  it('makes every further try wait longer: 15 s, 30 s, 60 s ...', async () => {
    const user = await makeUser(await makeCompany());
    const ip = freshIp();
    for (let i = 0; i < FREE_TRIES; i++) await login(user.email, 'wrong', ip);
    const waits: number[] = [];
    for (let step = 0; step < 3; step++) {
      waits.push(Number((await login(user.email, 'wrong', ip)).headers.get('Retry-After')));
      await endWait();
      expect((await login(user.email, 'wrong', ip)).status).toBe(401); // checked again once the wait is over
    }
    waits.push(Number((await login(user.email, 'wrong', ip)).headers.get('Retry-After')));
    expect(waits.map((s) => Math.round(s / 15) * 15)).toEqual([15, 30, 60, 120]);
    await endWait();
    expect((await login(user.email, PASSWORD, ip)).status).toBe(200);
    // The right password starts the pair from zero.
    expect((await login(user.email, 'wrong', ip)).status).toBe(401);
  });

  it('counts a burst of 50 parallel wrong passwords exactly: only the free tries are checked', async () => {
    const user = await makeUser(await makeCompany());
    const ip = freshIp();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => login(user.email, `burst-${i}`, ip)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(FREE_TRIES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50 - FREE_TRIES);
    const rows = await db().select().from(signInThrottle);
    expect(rows.filter((r) => r.tries === FREE_TRIES).length).toBeGreaterThan(0);
    expect((await login(user.email, PASSWORD, ip)).status).toBe(429);
  });

  it(`limits one IP to ${RATE_LIMITS.signIn.limit} failed sign-ins across all emails; successful ones do not count`, async () => {
    const user = await makeUser(await makeCompany());
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expect((await login(user.email, PASSWORD, ip)).status).toBe(200);
    const wrong = await Promise.all(
      Array.from({ length: RATE_LIMITS.signIn.limit }, (_, i) =>
        login(`spray-${i}-${crypto.randomUUID()}@test.example`, 'guess', ip),
      ),
    );
    expect(wrong.every((r) => r.status === 401)).toBe(true);
    const refused = await login(user.email, PASSWORD, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await login(user.email, PASSWORD, freshIp())).status).toBe(200);
  });

  it('throttles ChangePassword’s currentPassword with the same counter', async () => {
    const user = await makeUser(await makeCompany());
    const ip = freshIp();
    const cookie = await loginAs(user.email);
    const change = (currentPassword: string) =>
      call('POST', '/api/Account/ChangePassword', {
        cookie,
        body: { currentPassword, newPassword: 'a-new-password-789' },
        headers: { 'CF-Connecting-IP': ip },
      });
    const parallel = await Promise.all(Array.from({ length: 12 }, (_, i) => change(`wrong-${i}`)));
    expect(parallel.filter((r) => r.status === 400)).toHaveLength(FREE_TRIES);
    expect(parallel.filter((r) => r.status === 429)).toHaveLength(12 - FREE_TRIES);
    expect((await change(PASSWORD)).status).toBe(429);
    // Sign-in from that IP waits too: one counter per (email, IP).
    expect((await login(user.email, PASSWORD, ip)).status).toBe(429);
    await endWait();
    expect((await change(PASSWORD)).status).toBe(200);
  });

  it('stores no email or IP in clear', async () => {
    const user = await makeUser(await makeCompany());
    const ip = freshIp();
    await login(user.email, 'wrong', ip);
    const rows = await db().select().from(signInThrottle).where(eq(signInThrottle.tries, 1));
    expect(rows.some((r) => r.key.includes(user.email) || r.key.includes(ip))).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.key))).toBe(true);
  });
});
