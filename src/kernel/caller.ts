/** The tenant a domain call acts for. */
export interface Tenant {
  companyId: string;
}

/** Through what a change was made; set once where each surface authenticates (docs/history.md). */
export type Surface = 'web' | 'agent' | 'mcp' | 'job';

export const SURFACES = ['web', 'agent', 'mcp', 'job'] as const satisfies readonly Surface[];

/**
 * Who writes and through what: the tenant a write acts for plus what the history records.
 * The web session, the bearer middleware of `/api/ai`, the MCP authentication and the job
 * runner each build it once; domain functions pass it on and never guess any part of it.
 *
 * - `clientName`: the OAuth client's registered name on the `agent` and `mcp` surfaces.
 * - `jobId`: the job on the `job` surface (import, mass edit, sync).
 */
export interface Actor extends Tenant {
  userId: string;
  surface: Surface;
  clientName?: string | null;
  jobId?: string | null;
  /** The user's switch "AI may edit classifications", set on the `agent` and `mcp` surfaces (classification/ai-switch.ts). */
  aiMayEditClassifications?: boolean;
}

/** The actor of a background job: the user who started it, surface `job`. */
export function jobActor(job: { companyId: string; userId: string; id: string }): Actor {
  return { companyId: job.companyId, userId: job.userId, surface: 'job', jobId: job.id };
}
