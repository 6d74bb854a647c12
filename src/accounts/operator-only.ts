import { forbidden } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';

/** The one message for an operation that only the service operator may call, on every surface. */
export const OPERATOR_ONLY = 'only the service operator may do this';

/**
 * Reference data every company shares (classification releases in every cell) is changed by the
 * service operator only (docs/classification-releases.md "Who may load a release"): a property of
 * the user (`users.is_operator`, granted out of band, docs/deploy.md), not of a company
 * membership, so a company admin is refused like an editor. Operator rights are never delegated:
 * the `agent` and `mcp` surfaces are refused even for an operator's own token, whatever its
 * scopes (no scope grants them), and a job acts with the rights its start was checked for.
 *
 * The operation guard (openapi/operation-guard.ts, trait `operatorOnly`) calls this before the
 * request is validated; the domain functions call it again for callers that do not come through
 * a route (the CLI, tests).
 */
export function assertOperator(caller: Pick<Caller, 'operator' | 'surface'>): void {
  if (caller.operator !== true || caller.surface === 'agent' || caller.surface === 'mcp')
    throw forbidden(OPERATOR_ONLY);
}
