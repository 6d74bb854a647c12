import type { MemberRole, Permission } from './permissions';

/** Through what a change was made; set once where each surface authenticates (docs/history.md). */
export type Surface = 'web' | 'agent' | 'mcp' | 'job';

export const SURFACES = ['web', 'agent', 'mcp', 'job'] as const satisfies readonly Surface[];

/**
 * Who calls a domain function and through what: the one caller type of every surface. The web
 * session, the bearer middleware of `/api/ai`, the MCP authentication and the job runner each
 * build it once; domain functions take it as `(db, caller, input)`, scope every query to
 * `companyId`, record `userId`, `surface`, `clientName` and `jobId` in the change history, and
 * never guess any part of it. A field a surface does not know is absent, never invented:
 *
 * - `departmentId`: the session's department (web), the user's default (agent, mcp), the
 *   job's (job).
 * - `role`: the membership's role (web, agent, mcp; kernel/permissions.ts says what it permits,
 *   narrowed on the agent surfaces); absent on the job surface.
 * - `permissions`: when `role` is a custom role's id, its permissions, read with the membership.
 * - `languages`: the membership's language scope (a translator for `fra`); absent: every language.
 * - `productScope`: the membership's catalogs and category subtrees (docs/teams.md "Catalog,
 *   category and channel scopes"); absent: every product of the company.
 * - `channels`: the membership's channel scope (exports, review decisions); absent: every channel.
 * - `clientName`: the OAuth client's registered name on the `agent` and `mcp` surfaces.
 * - `jobId`: the job on the `job` surface (import, mass edit, sync).
 * - `aiMayEditClassifications`: the user's switch "AI may edit classifications", set on the
 *   `agent` and `mcp` surfaces (classification/ai-switch.ts).
 * - `scopes`: the token's scopes on the `agent` and `mcp` surfaces.
 * - `operator`: the user is the service operator (`users.is_operator`), set on the `web` surface
 *   only: operator rights are never delegated to an agent (accounts/operator-only.ts).
 */
export interface Caller {
  companyId: string;
  userId: string;
  surface: Surface;
  departmentId: string;
  role?: MemberRole;
  /** A custom role's permissions (kernel/permissions.ts `Acting`); absent for a built-in role. */
  permissions?: readonly Permission[];
  languages?: readonly string[];
  productScope?: ProductScope;
  channels?: readonly string[];
  clientName?: string | null;
  jobId?: string | null;
  aiMayEditClassifications?: boolean;
  scopes?: string[];
  operator?: boolean;
}

/**
 * The products a member may read and write (docs/teams.md): those of the catalogs named, and the
 * masters (with their variants) placed in a category named or any category below it. A member
 * with a product scope sees nothing else: lists, counts and search leave the rest out, a single
 * read of another is 404 and a write naming another is 403.
 */
export interface ProductScope {
  catalogIds: readonly string[];
  categoryIds: readonly string[];
}

/** The caller of a background job: the user who started it, surface `job`. */
export function jobCaller(job: { companyId: string; departmentId: string; userId: string; id: string }): Caller {
  return {
    companyId: job.companyId,
    departmentId: job.departmentId,
    userId: job.userId,
    surface: 'job',
    jobId: job.id,
  };
}
