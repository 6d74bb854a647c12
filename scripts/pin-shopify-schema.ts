/**
 * Pins Shopify's Admin GraphQL schema for the Shopify adapter's contract tests
 * (connector/contracts/shopify/README.md): reads the introspection result that the npm package
 * `@shopify/dev-mcp` ships (`dist/data/admin_<version>.json.gz`) and writes it as SDL, gzipped,
 * which is a third smaller than the introspection JSON and diffs as text once unzipped.
 *
 *   npx tsx scripts/pin-shopify-schema.ts <unpacked @shopify/dev-mcp package dir> <version>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { buildClientSchema, printSchema } from 'graphql';

const [packageDir, version] = process.argv.slice(2);
if (!packageDir || !version) {
  console.error('usage: tsx scripts/pin-shopify-schema.ts <@shopify/dev-mcp package dir> <version, e.g. 2026-07>');
  process.exit(2);
}
const introspection = JSON.parse(
  gunzipSync(readFileSync(join(packageDir, 'dist/data', `admin_${version}.json.gz`))).toString('utf8'),
);
const sdl = printSchema(buildClientSchema(introspection.data));
const target = join(import.meta.dirname, '../connector/contracts/shopify', `admin-${version}.graphql.gz`);
writeFileSync(target, gzipSync(sdl, { level: 9 }));
console.log(`${target}: ${sdl.length} characters of SDL`);
