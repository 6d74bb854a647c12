import { type SQL, sql } from 'drizzle-orm';

/**
 * The condition every outbox writer adds (docs/webhooks.md "Events"): a company without an
 * enabled webhook endpoint gets no outbox rows, as the job trigger of migration 0052 does. Here in
 * the db layer because domains below the webhooks (completeness, review) write outbox rows in their
 * own batches.
 */
export const companyHasWebhooks = (companyId: string | SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM webhook_endpoints WHERE company_id = ${companyId} AND enabled = 1)`;
