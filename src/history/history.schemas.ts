import { z } from 'zod';
import { PageQuery } from '../kernel/pagination';
import { SURFACES } from '../kernel/caller';

/** `GET /api/Catalog/GetHistory?elementId=&cursor=&limit=` (and `/api/ai/GetHistory`). */
export const GetHistoryQuery = z.strictObject({ elementId: z.uuid(), ...PageQuery });

/** `POST /api/Catalog/RestoreVersion`. */
export const RestoreVersionDto = z.strictObject({ departmentId: z.uuid(), elementId: z.uuid(), versionId: z.uuid() });

/** Named, so the document's generator gives this recursive schema its own component instead of a numbered one. */
export const JsonValue = z.json().meta({ id: 'JsonValue' });

const ChangeOut = z.object({ path: z.string(), before: JsonValue, after: JsonValue });

export const HistoryItemOut = z.object({
  versionId: z.string(),
  at: z.string(),
  action: z.enum(['create', 'update', 'delete', 'restore']),
  elementKind: z.enum(['catalog', 'category', 'product', 'variant', 'template']),
  user: z.object({ userId: z.string(), name: z.string().nullable() }),
  surface: z.enum(SURFACES),
  clientName: z.string().optional(),
  jobId: z.string().optional(),
  changes: z.array(ChangeOut),
});

export const HistoryPageOut = z.object({ items: z.array(HistoryItemOut), nextCursor: z.string().nullable() });

export const RestoreOut = z.object({
  elementId: z.string(),
  restoredFrom: z.string(),
  /** The version the restore itself recorded; null when the element already was in that state. */
  versionId: z.string().nullable(),
  changes: z.array(ChangeOut),
  skipped: z.array(z.object({ elementId: z.string(), path: z.string(), reason: z.string() })),
});
