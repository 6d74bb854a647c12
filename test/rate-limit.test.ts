import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';

const limiter = (name: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));

describe('RateLimiter Durable Object', () => {
  it('refuses beyond the limit and reopens when the oldest request leaves the window', async () => {
    const stub = limiter(`test:${crypto.randomUUID()}`);
    expect(await stub.hit(2, 300)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await stub.hit(2, 300)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    const refused = await stub.hit(2, 300);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(1);
    await new Promise((r) => setTimeout(r, 350));
    expect((await stub.hit(2, 300)).allowed).toBe(true);
  });

  it('counts concurrent requests exactly', async () => {
    const stub = limiter(`test:${crypto.randomUUID()}`);
    const results = await Promise.all(Array.from({ length: 8 }, () => stub.hit(5, 60_000)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });
});
