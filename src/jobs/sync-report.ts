import { z } from 'zod';

/**
 * What a sync run reports in its job's `result.report` (docs/sync.md): the response schema of
 * GetJob for that kind and of a connection's last run. Beside the job row that carries it, below
 * the sync that fills it in (scripts/layers.ts).
 */
export const SyncReport = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  deactivated: z.number().int(),
  /**
   * At most QUARANTINE_LIST_CAP entries; `quarantinedCount` is the full number. Records the PIM
   * could not send (no mapping, too large, ...) and records the shop refused (its `failed`
   * answer, the reason as `<field>: <error>`, e.g. `product.name: Title is too long`); neither
   * counts as created or updated, and the next run sends them again.
   */
  quarantined: z.array(z.object({ sku: z.string(), reason: z.string() })),
  quarantinedCount: z.number().int(),
  batches: z.object({ sent: z.number().int(), retried: z.number().int() }),
  durationMs: z.number().int(),
  /** Dry runs only: the SKUs each operation would touch, each list capped at PLAN_LIST_CAP. */
  plan: z
    .object({
      create: z.array(z.string()),
      update: z.array(z.string()),
      deactivate: z.array(z.string()),
      truncated: z.boolean(),
    })
    .optional(),
  /** A real shop already held these records as sent (counted apart from created and updated). */
  unchanged: z.number().int().optional(),
  /**
   * Dry runs against a real shop: what each product would change against what the shop holds,
   * by SKU (`fields`: `name`, `prices`, `variants.<sku>`, `variants.<sku>.price`; at most 20 per
   * product, `moreFields` counts the rest), at most PLAN_LIST_CAP products; `changesCount` has
   * them all. Unchanged products are not listed. `references`: where the shop writes references,
   * the product's references by manufacturer number and the SKU each resolves to (null: no
   * single product carries the number, so the write would fail the product), at most 20.
   */
  changes: z
    .array(
      z.object({
        sku: z.string(),
        op: z.enum(['create', 'update', 'deactivate']),
        fields: z.array(z.string()),
        moreFields: z.number().int().optional(),
        references: z.array(z.object({ type: z.string(), number: z.string(), sku: z.string().nullable() })).optional(),
      }),
    )
    .optional(),
  changesCount: z.number().int().optional(),
  /** Set when the guardrail refused the deactivations of this run. */
  deactivationsRefused: z.number().int().optional(),
  /**
   * With onlyComplete: masters left out as incomplete for the channel (`count`), variants left out
   * of the masters that went out (`variants`, the first 20 SKUs in `variantSkus`), and how many
   * of them (masters and variants) lack each `label (language)`.
   */
  /**
   * A run limited to the subtrees of a member's category scope (docs/teams.md "Syncs"): only the
   * masters placed in them were compared and sent. `keptInShop` SKUs of the shop were not among
   * them (products outside the subtrees, and products deleted or moved out of them since the
   * last full run) and were kept there, not deactivated: only a full run takes them out.
   */
  subtree: z.object({ categoryIds: z.array(z.string()), keptInShop: z.number().int() }).optional(),
  incomplete: z
    .object({
      channel: z.string(),
      count: z.number().int(),
      variants: z.number().int(),
      variantSkus: z.array(z.string()),
      missing: z.array(z.object({ requirement: z.string(), products: z.number().int() })),
    })
    .optional(),
});
export type SyncReportOut = z.infer<typeof SyncReport>;
