import type { JobState } from '../../api/types';

/** Shapes of the Sync API (API-CONTRACTS "Sync"). */
export interface Connection {
  connectionId: string;
  departmentId: string;
  catalogId: string;
  name: string;
  connectorUrl: string;
  keyId: string;
  options: {
    missing: 'deactivate' | 'ignore';
    maxDeactivationPercent: number;
    schedule: null | 'hourly' | 'daily';
    defaultTaxCode?: string;
  };
  hasSecret: boolean;
  lastRun: SyncRun | null;
  nextRunAt?: string | null;
}

export interface SyncReport {
  created: number;
  updated: number;
  skipped: number;
  deactivated: number;
  quarantined: { sku: string; reason: string }[];
  /** The full number; `quarantined` may be capped. */
  quarantinedCount?: number;
  batches: { sent: number; retried: number };
  durationMs: number;
  plan?: { create: string[]; update: string[]; deactivate: string[]; truncated?: boolean };
  /** Set when the guardrail (maxDeactivationPercent) refused this run's deactivations. */
  deactivationsRefused?: number;
}

export interface SyncRun {
  jobId: string;
  state: JobState;
  dryRun: boolean;
  createdAt: string;
  finishedAt: string | null;
  report: SyncReport | null;
  error?: string | null;
}
