import type { BatchStatement, Database } from './client';
import { completenessEventsFlush, completenessEventsHold } from './schema';

/**
 * The end of a write for the completeness webhook events (migration 0069, docs/webhooks.md
 * "Events"): the row triggers note each touched (product, channel) pair's state before the
 * write; this statement's trigger compares it with the state now and writes one
 * `completeness.reached` / `.lost` per pair that flipped. Every rescore trigger of a single
 * statement ends with it already; a batch adds it after a rescore it runs itself.
 */
export function completenessEventsFlushStatements(db: Database): BatchStatement[] {
  return [db.delete(completenessEventsFlush), db.insert(completenessEventsFlush).values({ id: 1 })];
}

/**
 * Wraps a batch whose statements each rescore products (UpdateProduct replacing placements: a
 * delete, then inserts) so the pairs are compared once, at the batch's end, not after each
 * statement: a product moved from one category to another in one write is compared before the
 * move and after it, never in between. One D1 batch is one transaction, so the hold is never seen
 * outside it and a failed batch rolls it back with the rest.
 */
export function withCompletenessEventsAtEnd(db: Database, statements: BatchStatement[]): BatchStatement[] {
  if (statements.length === 0) return statements;
  return [
    db.insert(completenessEventsHold).values({ id: 1 }).onConflictDoNothing(),
    ...statements,
    db.delete(completenessEventsHold),
    ...completenessEventsFlushStatements(db),
  ];
}
