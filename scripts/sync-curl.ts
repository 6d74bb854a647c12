/**
 * Prints a ready-to-run curl command for one signed request to a shop connector (signature
 * valid for 300 s), so the protocol can be tried by hand:
 *
 *   eval "$(npm run -s sync:curl -- GET /inventory)"
 *   eval "$(npm run -s sync:curl -- GET '/inventory?after=LS-B16')"
 *
 * CONNECTOR_URL (default http://127.0.0.1:8788), CONNECTOR_KEY_ID (default demo) and
 * CONNECTOR_SECRET (default the local demo secret) select another connector.
 */
import { signRequest } from '../src/sync/protocol/signing';

const [method = 'GET', path = '/status', body] = process.argv.slice(2);
const base = new URL(process.env.CONNECTOR_URL ?? 'http://127.0.0.1:8788');
const url = new URL(base.pathname.replace(/\/$/, '') + path, base);
const headers = await signRequest({
  keyId: process.env.CONNECTOR_KEY_ID ?? 'demo',
  secret: process.env.CONNECTOR_SECRET ?? 'demo-connector-secret-1',
  method,
  pathWithQuery: url.pathname + url.search,
  body: body ?? '',
});
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const parts = [
  'curl',
  '-sS',
  '-X',
  method,
  ...Object.entries(headers).flatMap(([name, value]) => ['-H', quote(`${name}: ${value}`)]),
];
if (body !== undefined) parts.push('-H', quote('Content-Type: application/json'), '--data-binary', quote(body));
parts.push(quote(url.toString()));
console.log(parts.join(' '));
