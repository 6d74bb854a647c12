import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contactMessages } from '../src/db/schema';
import { db } from './helpers/factories';
import { randomIp, send } from './oauth-helpers';

const message = {
  name: 'Erika Muster',
  email: 'Erika@Example.com',
  company: 'Muster Elektro',
  message: 'Please call me about a PIM demo.',
};

describe('POST /api/contact/submit', () => {
  it('stores a valid message and returns its id', async () => {
    const res = await send('POST', '/api/contact/submit', {
      json: message,
      headers: { 'CF-Connecting-IP': randomIp() },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ ok: true, messageId: expect.any(String) });
    const row = await db().query.contactMessages.findFirst({ where: eq(contactMessages.id, res.json.messageId) });
    expect(row).toMatchObject({
      name: 'Erika Muster',
      email: 'erika@example.com',
      company: 'Muster Elektro',
      message: message.message,
    });
  });

  it('accepts a message without a company', async () => {
    const { company: _company, ...rest } = message;
    const res = await send('POST', '/api/contact/submit', { json: rest, headers: { 'CF-Connecting-IP': randomIp() } });
    expect(res.status).toBe(200);
    const row = await db().query.contactMessages.findFirst({ where: eq(contactMessages.id, res.json.messageId) });
    expect(row!.company).toBeNull();
  });

  it.each([
    ['a bad email', { email: 'not-an-email' }, /email/],
    ['a missing name', { name: undefined }, /name is required/],
    ['a too short message', { message: 'hi' }, /message must have at least 10 characters/],
    ['an unknown field', { phone: '123' }, /unknown field\(s\) phone/],
  ])('refuses %s with 400 and stores nothing', async (_what, change, error) => {
    const before = await db().$count(contactMessages);
    const res = await send('POST', '/api/contact/submit', {
      json: { ...message, ...change },
      headers: { 'CF-Connecting-IP': randomIp() },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(error);
    expect(await db().$count(contactMessages)).toBe(before);
  });

  it('answers 415 to a form post', async () => {
    const res = await send('POST', '/api/contact/submit', {
      form: { name: 'x' },
      headers: { 'CF-Connecting-IP': randomIp() },
    });
    expect(res.status).toBe(415);
  });

  it('allows 5 submissions per hour per IP, counting invalid ones, then answers 429 with Retry-After', async () => {
    const ip = randomIp();
    for (let i = 0; i < 4; i++) {
      const ok = await send('POST', '/api/contact/submit', { json: message, headers: { 'CF-Connecting-IP': ip } });
      expect(ok.status).toBe(200);
    }
    const invalid = await send('POST', '/api/contact/submit', {
      json: { ...message, email: 'x' },
      headers: { 'CF-Connecting-IP': ip },
    });
    expect(invalid.status).toBe(400);
    const before = await db().$count(contactMessages);
    const limited = await send('POST', '/api/contact/submit', { json: message, headers: { 'CF-Connecting-IP': ip } });
    expect(limited.status).toBe(429);
    expect(limited.json.error).toMatch(/too many requests/);
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(3500);
    expect(await db().$count(contactMessages)).toBe(before);
    const elsewhere = await send('POST', '/api/contact/submit', {
      json: message,
      headers: { 'CF-Connecting-IP': randomIp() },
    });
    expect(elsewhere.status).toBe(200);
  });
});
