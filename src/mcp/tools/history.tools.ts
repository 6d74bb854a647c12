import { z } from 'zod';
import { getHistory } from '../../history/history';
import { HistoryPageOut } from '../../history/history.schemas';
import { defineTool, READ_ONLY } from '../tool-definition';
import { PAGING_NOTE, PageInput } from './paging';

/** Read-only access to the change history (docs/history.md). */
export const historyTools = [
  defineTool({
    name: 'get_history',
    title: 'Change history of an element',
    description:
      'The recent changes of one product, variant, category, catalog or export template, newest first: when, by which user, ' +
      'through what (surface web, agent or mcp with the client name, or job with its jobId) and each changed field as ' +
      '{path, before, after} (paths: built-in field names, values.<attribute>, classification.class.<GROUP>, ' +
      `classification.feature.<GROUP>.<code>, categories, variants, media.<id>). Use it to see what you and others changed. ${PAGING_NOTE}`,
    input: z.strictObject({ elementId: z.uuid().describe('The element whose history to read.'), ...PageInput }),
    output: HistoryPageOut,
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => getHistory(db, caller, input),
  }),
];
