/**
 * Sends one signed request to a connector and prints the status, the protocol headers and the
 * body: the quickest way to look into the demo shop.
 *
 *   npm run connector:call -- GET /status
 *   npm run connector:call -- GET '/inventory?after=LS-B16'
 *   npm run connector:call -- POST /upsert '{"batchId":"try-1","dryRun":true,"records":[]}'
 *
 * CONNECTOR_URL (default http://127.0.0.1:8788), CONNECTOR_KEY_ID (default demo) and
 * CONNECTOR_SECRET (default the local demo secret) select another connector.
 */
import { signedRequestFromArgs } from '../../scripts/lib/signed-cli';

const { method, url, body, headers } = await signedRequestFromArgs();
const response = await fetch(url, { method, body, headers });
const shown = ['etag', 'cache-control', 'x-inventory-count', 'idempotent-replayed', 'retry-after'];
console.log(`HTTP ${response.status}`);
for (const [name, value] of response.headers) if (shown.includes(name)) console.log(`${name}: ${value}`);
console.log(await response.text());
