import { z } from 'zod';

/**
 * Keyset paging for list tools. Pages are smaller than the REST default (25, at most 100)
 * because every item lands in the model's context window.
 */
export const PageInput = {
  cursor: z
    .string()
    .max(200)
    .optional()
    .describe("Opaque cursor from the previous page's nextCursor; omit it for the first page."),
  limit: z.int().min(1).max(100).default(25).describe('Page size, 1 to 100 (default 25).'),
};

export const PAGING_NOTE =
  'Results are paginated: when nextCursor is not null, call again with cursor set to it for the next page.';
