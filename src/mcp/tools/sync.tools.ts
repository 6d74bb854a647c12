import { z } from 'zod';
import { listConnections } from '../../sync/connections';
import { listRuns } from '../../sync/start-sync';
import { ConnectionOut, LastRun } from '../../sync/sync.schemas';
import { defineTool, READ_ONLY } from '../tool-definition';

/** Read-only view of the shop sync (docs/sync.md): the connections and what their runs did. */
export const syncTools = [
  defineTool({
    name: 'list_sync_connections',
    title: 'List shop sync connections',
    description:
      "The company's shop sync connections: catalog, connector, options (schedule, channel, onlyComplete) and the shop " +
      'each writes into (kind such as shopware or shopify, URL, the mapping of languages, prices and features, whether ' +
      'credentials are set; never the credentials), with the last run. Read only: connections are set up in the web application.',
    input: z.strictObject({
      departmentId: z.uuid().optional().describe('Only the connections of this department.'),
    }),
    output: z.object({ items: z.array(ConnectionOut) }),
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => listConnections(db, caller, input),
  }),
  defineTool({
    name: 'list_sync_runs',
    title: 'List sync runs of a shop connection',
    description:
      'The runs of one shop sync connection, newest first: state (queued, running, succeeded, failed, cancelled), ' +
      'whether it was a dry run, the error of a failed run, and the report of a finished one (created, updated, skipped, ' +
      'deactivated, quarantined SKUs with the reason, batches sent and retried, duration; a dry run also has the plan). ' +
      'Read only: runs are started in the web application.',
    input: z.strictObject({
      connectionId: z.uuid().describe('The sync connection (shown in the web application under Sync).'),
      limit: z.number().int().min(1).max(50).default(10).describe('How many runs to return.'),
      cursor: z.string().max(200).optional().describe('nextCursor of the previous page.'),
    }),
    output: z.object({ items: z.array(LastRun), nextCursor: z.string().nullable() }),
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => listRuns(db, caller, input),
  }),
];
