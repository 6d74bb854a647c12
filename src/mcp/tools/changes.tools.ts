import { z } from 'zod';
import { getChanges } from '../../history/changes-feed';
import { ChangesPageOut } from '../../history/changes.schemas';
import { defineTool, READ_ONLY } from '../tool-definition';

/** The changes feed for agents that keep a copy in step (docs/changes-feed.md). */
export const changesTools = [
  defineTool({
    name: 'get_changes',
    title: 'Changes of the company since a cursor',
    description:
      "Every change to the company's catalogs, categories, products, variants and export templates after `since`, oldest " +
      'first in the order they were committed, deletions included: the element, action (create, update, delete, restore), ' +
      'who and through what, the changed fields and languages, and each change as {path, before, after}. Omit `since` to ' +
      "start at the oldest kept change; pass the answer's `cursor` as `since` next time to get only what is new (nothing " +
      'is missed between two calls). When hasMore is true, call again at once.',
    input: z.strictObject({
      since: z
        .string()
        .max(200)
        .optional()
        .describe('The `cursor` of the previous answer; omit it to start at the beginning.'),
      limit: z.int().min(1).max(100).default(25).describe('Changes per call, 1 to 100 (default 25).'),
      include: z
        .enum(['events'])
        .optional()
        .describe(
          '`events`: review (submitted, approved, rejected, reopened) and completeness (reached, lost) events come too, ' +
            'as items {type, eventId, cursor, at, data} in commit order with the changes.',
        ),
    }),
    output: ChangesPageOut,
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => getChanges(db, caller, input),
  }),
];
