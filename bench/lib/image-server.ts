/**
 * A few distinct small PNGs served from 127.0.0.1 for the shop benchmark: records point at
 * them and reuse them across products, so an adapter's deduplication by sha256 shows (each
 * image fetched and uploaded once, however many products carry it). `fetches` counts the GETs.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A 16x16 RGB PNG of one colour. */
function png(r: number, g: number, b: number): Buffer {
  const size = 16;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface BenchImage {
  url: string;
  sha256: string;
  fileName: string;
}

export async function startImageServer(count = 4) {
  const images = Array.from({ length: count }, (_, i) => png((i * 67) % 256, (i * 131) % 256, (i * 29 + 90) % 256));
  let fetches = 0;
  const server = createServer((req, res) => {
    const match = /^\/img\/(\d+)\.png$/.exec(req.url ?? '');
    const bytes = match ? images[Number(match[1])] : undefined;
    if (!bytes) {
      res.writeHead(404);
      return res.end();
    }
    fetches++;
    res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': bytes.length });
    res.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const served: BenchImage[] = images.map((bytes, i) => ({
    url: `http://127.0.0.1:${port}/img/${i}.png`,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    fileName: `bench-${i}.png`,
  }));
  return {
    images: served,
    get fetches() {
      return fetches;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
