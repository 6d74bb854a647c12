/** Two hex digits per byte value, so a digest is written without a string per byte. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

const encoder = new TextEncoder();

/** Lower-case hex of bytes. */
export function hexOf(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]!];
  return out;
}

/**
 * Hex SHA-256, used for session token hashes and fingerprints. One encoder for all calls and
 * a table for the hex: an import computes one per master, and the spread, map, padStart and
 * join per digest were 2 % of a BMEcat import's Worker profile (docs/benchmarks.md, "Import
 * throughput, part 8").
 */
export async function sha256Hex(text: string): Promise<string> {
  return hexOf(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}
