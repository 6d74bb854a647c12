import { forbidden } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';

/** The one message of docs/spec.md 5.2 rule 6, on every surface (REST /api/ai, MCP tools, bulk upserts). */
export const AI_SWITCH_OFF =
  'the account switch "AI may edit classifications" is off for this user; ask a company admin to turn it on';

/**
 * docs/spec.md 5.2 rule 6: an agent (`/api/ai` or MCP) writes classifications only while its user's
 * switch "AI may edit classifications" is on. The switch is read from the database on every
 * authenticated call (oauth/agent-auth.ts), so an admin turning it off applies at the next write.
 * Web users and jobs are not agents and are not bound by it. Checked first, before the request
 * is even validated (the `aiSwitch` trait of a route, the `authorize` of an MCP tool), and again
 * first thing in each domain function, so a refused agent learns nothing about what it sent.
 */
export function assertMayEditClassifications(actor: Caller): void {
  const isAgent = actor.surface === 'agent' || actor.surface === 'mcp';
  if (isAgent && actor.aiMayEditClassifications !== true) throw forbidden(AI_SWITCH_OFF);
}
