import { DurableObject } from 'cloudflare:workers';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv, Bindings } from '../env';
import { AppError } from '../kernel/app-error';

/**
 * docs/spec.md part 8: public endpoints allow 5 requests per hour per client IP. Sign-in (web Login
 * and the OAuth sign-in page) allows 30 failed attempts per 15 minutes per IP, whatever the
 * accounts tried (docs/reliability.md).
 */
export const RATE_LIMITS = {
  register: { limit: 5, windowMs: 60 * 60 * 1000 },
  contact: { limit: 5, windowMs: 60 * 60 * 1000 },
  signIn: { limit: 30, windowMs: 15 * 60 * 1000 },
} as const;

type RateLimitBucket = keyof typeof RATE_LIMITS;

interface RateDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * One sliding-window counter per (bucket, IP). A Durable Object runs one request at a time and
 * its storage is strongly consistent, so concurrent requests from one IP cannot slip past the
 * limit the way a KV read-then-write could. Refused requests are not recorded: the window
 * reopens when the oldest accepted request is an hour old.
 */
export class RateLimiter extends DurableObject<Bindings> {
  async hit(limit: number, windowMs: number): Promise<RateDecision> {
    const now = Date.now();
    const hits = ((await this.ctx.storage.get<number[]>('hits')) ?? []).filter((t) => t > now - windowMs);
    if (hits.length >= limit) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((hits[0]! + windowMs - now) / 1000)) };
    }
    hits.push(now);
    await this.ctx.storage.put('hits', hits);
    // Forget the IP once its window has passed, so idle counters take no storage.
    await this.ctx.storage.setAlarm(now + windowMs);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  /** Takes back the newest hit: a request that turned out not to count (a successful sign-in). */
  async forgive(): Promise<void> {
    const hits = (await this.ctx.storage.get<number[]>('hits')) ?? [];
    hits.pop();
    await this.ctx.storage.put('hits', hits);
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}

/** The client IP as Cloudflare reports it; requests without one share a single counter. */
export function clientIp(request: Request): string {
  return request.headers.get('CF-Connecting-IP')?.trim() || 'unknown';
}

/**
 * Counts the request against `bucket` for its IP; 429 with `Retry-After` once over the limit.
 * With `failuresOnly`, a request that succeeds (status below 400) is taken back, so only
 * failures use up the budget; it is still counted before it runs, so a parallel burst cannot
 * slip past the limit.
 */
export function rateLimit(
  bucket: RateLimitBucket,
  options: { failuresOnly?: boolean } = {},
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { limit, windowMs } = RATE_LIMITS[bucket];
    const stub = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(`${bucket}:${clientIp(c.req.raw)}`));
    const decision = await stub.hit(limit, windowMs);
    if (!decision.allowed) {
      throw new AppError('rate_limited', `too many requests; try again in ${decision.retryAfterSeconds} seconds`, {
        'Retry-After': String(decision.retryAfterSeconds),
      });
    }
    await next();
    if (options.failuresOnly && c.res.status < 400) await stub.forgive();
  };
}
