import { forbidden } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';

/** The one message for an operation that only a company admin may call, on every surface. */
export const ADMIN_ONLY = 'only a company admin may do this';

/**
 * docs/design.md section 2: a company has admins and editors; user administration and sync
 * connections are for admins. The operation guard (openapi/operation-guard.ts) calls this before
 * the request is validated, and the domain functions call it again for callers that do not come
 * through a route.
 */
export function assertAdmin(caller: Pick<Caller, 'role'>): void {
  if (caller.role !== 'admin') throw forbidden(ADMIN_ONLY);
}
