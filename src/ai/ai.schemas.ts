import { z } from 'zod';
import { PageQuery } from '../kernel/pagination';

/** `GET /api/ai/ListClassificationLinkIds?cursor=&limit=&elementId=` (docs/design.md section 7). */
export const ListClassificationsQuery = z.strictObject({
  ...PageQuery,
  elementId: z.uuid().optional(),
});

/** `GET /api/ai/GetClassification?linkId=`. */
export const LinkIdQuery = z.strictObject({ linkId: z.uuid() });
