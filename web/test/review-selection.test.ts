import { describe, expect, it } from 'vitest';
import { allSelected, DECISION_LIMIT, decideEach, onPage, refusedProduct, toggled } from '../src/lib/review-selection';

const messageOf = (err: unknown) => (err instanceof Error ? err.message : null);

describe('review inbox selection', () => {
  it('adds and takes out one product, and tells when the whole page is selected', () => {
    const page = ['a', 'b', 'c'];
    let selection = toggled([], 'a', true);
    selection = toggled(selection, 'c', true);
    expect(selection).toEqual(['a', 'c']);
    expect(allSelected(selection, page)).toBe(false);
    selection = toggled(selection, 'b', true);
    expect(allSelected(selection, page)).toBe(true);
    expect(toggled(selection, 'a', false)).toEqual(['c', 'b']);
    expect(toggled(['a'], 'a', true)).toEqual(['a']);
    expect(allSelected([], [])).toBe(false);
  });

  it('keeps only what is still on the page, in the page order', () => {
    expect(onPage(['c', 'x', 'a'], ['a', 'b', 'c'])).toEqual(['a', 'c']);
  });

  it('finds the product a refusal names by its index in the list sent', () => {
    expect(
      refusedProduct(['a', 'b', 'c'], 'productIds[1]: you made the last change of b; another admin approves it'),
    ).toBe('b');
    expect(refusedProduct(['a'], 'productIds[4]: out of range')).toBeNull();
    expect(refusedProduct(['a'], 'channelId: review is off')).toBeNull();
  });
});

describe('deciding several products at once', () => {
  it('takes each refused product out, keeps its refusal for its row and decides the rest', async () => {
    const calls: string[][] = [];
    const own = new Set(['b', 'd']);
    const outcome = await decideEach(
      ['a', 'b', 'c', 'd'],
      async (ids) => {
        calls.push(ids);
        const i = ids.findIndex((id) => own.has(id));
        if (i >= 0)
          throw new Error(`productIds[${i}]: you made the last change of ${ids[i]}; another admin approves it`);
      },
      messageOf,
    );
    expect(outcome).toEqual({
      decided: ['a', 'c'],
      refused: {
        b: 'you made the last change of b; another admin approves it',
        d: 'you made the last change of d; another admin approves it',
      },
      error: null,
    });
    expect(calls).toEqual([
      ['a', 'b', 'c', 'd'],
      ['a', 'c', 'd'],
      ['a', 'c'],
    ]);
  });

  it('stops at a refusal that names no product and decides nothing', async () => {
    const failure = new Error('channelId: the review of Shop is off');
    const outcome = await decideEach(['a', 'b'], async () => Promise.reject(failure), messageOf);
    expect(outcome).toEqual({ decided: [], refused: {}, error: failure });
    const offline = await decideEach(['a'], async () => Promise.reject('offline'), messageOf);
    expect(offline.error).toBe('offline');
  });

  it('ends with nothing decided when every product is refused', async () => {
    const outcome = await decideEach(
      ['a', 'b'],
      async () => Promise.reject(new Error('productIds[0]: a is approved; only a product in_review can be approved')),
      messageOf,
    );
    expect(outcome.decided).toEqual([]);
    expect(Object.keys(outcome.refused)).toEqual(['a', 'b']);
  });

  it('sends at most one request worth of ids', async () => {
    const ids = Array.from({ length: DECISION_LIMIT + 5 }, (_, i) => `p${i}`);
    let sent = 0;
    const outcome = await decideEach(ids, async (batch) => (sent = batch.length), messageOf);
    expect(sent).toBe(DECISION_LIMIT);
    expect(outcome.decided).toHaveLength(DECISION_LIMIT);
  });
});
