import { describe, expect, it } from 'vitest';
import { deliverySubject, lastResponse, WEBHOOK_EVENT_GROUPS } from '../src/lib/webhook-events';

describe('webhook event list', () => {
  it('offers each event type once, the test event last', () => {
    const all = WEBHOOK_EVENT_GROUPS.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain('product.updated');
    expect(all.at(-1)).toBe('webhook.test');
  });
});

describe('deliverySubject', () => {
  it('reads a product event: kind, id and how many changes it carries', () => {
    const payload = {
      type: 'product.updated',
      data: { elementId: 'p-1', elementKind: 'variant', changes: [{}, {}, {}] },
    };
    expect(deliverySubject({ payload })).toEqual({
      kind: 'element',
      elementKind: 'variant',
      elementId: 'p-1',
      changes: 3,
    });
  });
  it('reads a completeness or review event: the product it names', () => {
    const payload = { type: 'review.rejected', data: { productId: 'p-2', channelId: 'c-1', comment: 'x' } };
    expect(deliverySubject({ payload })).toEqual({
      kind: 'element',
      elementKind: 'product',
      elementId: 'p-2',
      changes: 0,
    });
  });
  it('reads a job event', () => {
    expect(deliverySubject({ payload: { data: { jobId: 'j-1', kind: 'import' } } })).toEqual({
      kind: 'job',
      jobId: 'j-1',
      jobKind: 'import',
    });
  });
  it('has no subject for the test event or a payload without data', () => {
    expect(deliverySubject({ payload: { data: { endpointId: 'e', message: 'hi' } } })).toEqual({ kind: 'none' });
    expect(deliverySubject({ payload: null })).toEqual({ kind: 'none' });
    expect(deliverySubject({ payload: 'text' })).toEqual({ kind: 'none' });
  });
});

describe('lastResponse', () => {
  it('shows the HTTP code when there was an answer, else the error, else nothing', () => {
    expect(lastResponse({ lastStatus: 500, lastError: 'HTTP 500: boom' })).toBe('500');
    expect(lastResponse({ lastStatus: 200, lastError: null })).toBe('200');
    expect(lastResponse({ lastStatus: null, lastError: 'connection failed' })).toBe('connection failed');
    expect(lastResponse({ lastStatus: null, lastError: null })).toBe('');
  });
});
