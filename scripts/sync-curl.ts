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
import { signedRequestFromArgs } from './lib/signed-cli';

const { method, url, body, headers } = await signedRequestFromArgs();
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const parts = [
  'curl',
  '-sS',
  '-X',
  method,
  ...Object.entries(headers).flatMap(([name, value]) => ['-H', quote(`${name}: ${value}`)]),
];
if (body !== undefined) parts.push('--data-binary', quote(body));
parts.push(quote(url.toString()));
console.log(parts.join(' '));
