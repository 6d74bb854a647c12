import { describe, expect, it } from 'vitest';
import { createTargetHttp, OutcomeUnknown, type TargetRequest } from '../src/adapters/target-http';

/**
 * The adapters' one HTTP client (docs/shops.md "The shape"): a request that creates
 * (`once`) is never sent again after its answer was lost, as the shop may have run it; the
 * adapter looks up by its keys what it made (test/shops/vendure.test.ts, medusa.test.ts run it
 * against the real engines).
 */
function client(answers: (() => Promise<Response>)[]) {
  let sent = 0;
  const http = createTargetHttp({
    fetch: async () => {
      const answer = answers[Math.min(sent, answers.length - 1)];
      sent++;
      if (!answer) throw new Error('no answer scripted');
      return await answer();
    },
    sleep: async () => undefined,
    attempts: 3,
  });
  return { http, sent: () => sent };
}

const timeout = () => Promise.reject(new DOMException('The operation timed out.', 'TimeoutError'));
const lost = () => Promise.reject(new TypeError('Network connection lost.'));
const create: TargetRequest = { method: 'POST', url: 'https://shop.example/admin-api', body: '{}', once: true };
const read: TargetRequest = { ...create, once: false };

describe('a create whose answer is lost', () => {
  it('is sent once after a timeout, a lost connection or a 5xx, and says it may have been carried out', async () => {
    for (const answer of [timeout, lost, async () => new Response('busy', { status: 502 })]) {
      const { http, sent } = client([answer, async () => Response.json({ ok: true })]);
      const err = await http.send(create).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutcomeUnknown);
      expect((err as OutcomeUnknown).retryable).toBe(true);
      expect((err as Error).message).toMatch(/may have been carried out$/);
      expect(sent()).toBe(1);
    }
  });

  it('is sent again after a 429, which says the shop ran nothing', async () => {
    const { http, sent } = client([
      async () => new Response('slow down', { status: 429, headers: { 'Retry-After': '0' } }),
      async () => Response.json({ ok: true }),
    ]);
    expect((await http.send(create)).status).toBe(200);
    expect(sent()).toBe(2);
  });

  it('leaves other requests retried as before', async () => {
    const { http, sent } = client([timeout, lost, async () => Response.json({ ok: true })]);
    expect((await http.send(read)).status).toBe(200);
    expect(sent()).toBe(3);
  });
});
