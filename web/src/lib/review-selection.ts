/**
 * Bulk decisions in the review inbox (docs/review.md "Web"): which products of the page are
 * selected, and how one click approves or rejects them. ApproveProducts and RejectProducts are
 * all or nothing and refuse the whole list for one product (`productIds[2]: you made the last
 * change of …`), so `decideEach` takes the refused product out, keeps its refusal for its row,
 * and sends the rest again until the server takes them or a refusal names no product. Pure, so
 * web/test/review-selection.test.ts pins it.
 */

/** Most ids one ApproveProducts or RejectProducts takes. */
export const DECISION_LIMIT = 100;

/** The selection with `id` added or taken out. */
export function toggled(selection: readonly string[], id: string, on: boolean): string[] {
  const without = selection.filter((s) => s !== id);
  return on ? [...without, id] : without;
}

/** Whether every product of the page is selected (an empty page is not "all"). */
export function allSelected(selection: readonly string[], page: readonly string[]): boolean {
  return page.length > 0 && page.every((id) => selection.includes(id));
}

/** The selection kept to the products still on the page, in the page's order. */
export function onPage(selection: readonly string[], page: readonly string[]): string[] {
  return page.filter((id) => selection.includes(id));
}

/** The product a refusal names (`productIds[i]: …` of the list sent), or null when it names none. */
export function refusedProduct(sent: readonly string[], message: string): string | null {
  const at = /^productIds\[(\d+)\]/.exec(message);
  return at ? (sent[Number(at[1])] ?? null) : null;
}

export interface BulkOutcome {
  /** Products the server decided. */
  decided: string[];
  /** Refusals by product, each shown on its row. */
  refused: Record<string, string>;
  /** A refusal that names no product (e.g. the channel's review was turned off): shown for the whole list. */
  error: unknown;
}

/**
 * Sends `ids` (at most DECISION_LIMIT) through `send`; a refusal naming one of them takes that
 * product out and sends the others again, so each retry is one product shorter and the loop
 * ends. `messageOf` reads a refusal's text (ApiError's message), null for a failure that is not
 * a refusal (network): that ends the loop as `error`.
 */
export async function decideEach(
  ids: readonly string[],
  send: (ids: string[]) => Promise<unknown>,
  messageOf: (err: unknown) => string | null,
): Promise<BulkOutcome> {
  let pending = ids.slice(0, DECISION_LIMIT);
  const refused: Record<string, string> = {};
  while (pending.length > 0) {
    try {
      await send(pending);
      return { decided: pending, refused, error: null };
    } catch (err) {
      const message = messageOf(err);
      const product = message === null ? null : refusedProduct(pending, message);
      if (product === null) return { decided: [], refused, error: err };
      refused[product] = message!.replace(/^productIds\[\d+\]:\s*/, '');
      pending = pending.filter((id) => id !== product);
    }
  }
  return { decided: [], refused, error: null };
}
