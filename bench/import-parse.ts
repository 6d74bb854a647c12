/**
 * The import's file reading alone, in Node: the validation pass and the products pass of
 * `items()` (src/imports/records/import-items.ts) over a file on disk, through a stand-in R2
 * bucket that serves ranged bodies in pieces of PIECE_BYTES, as the Worker reads local R2's
 * (text-chunks.ts; `--chunk-bytes 4096` gives local R2's own pieces). No D1, no upsert: what
 * reading and turning the file into upsert records costs, which a CPU profile of the Worker
 * under `wrangler dev` cannot separate from local D1's work on the same thread.
 *
 *   npm run bench:import -- --sizes 20000 --formats BMEcat --keep-files /tmp/files   # the file
 *   npx tsx bench/import-parse.ts --file /tmp/files/20000-BMEcat --format BMEcat
 *   node --cpu-prof --import tsx bench/import-parse.ts --file ...                       # a profile
 *
 * `--base DIR` compares with another tree's reader in the same process: DIR holds that tree's
 * src/ (`git archive main src | tar -x -C DIR`, node_modules linked from here), and each run of
 * a pass alternates between the two, so both see the same load (the machine is shared).
 * `--floor` (BMEcat) also times saxes alone over the same pieces, no handlers: what any pass
 * with saxes costs at least, so the rest of a pass is the reader's own work.
 */
import { readFileSync } from 'node:fs';
import { SaxesParser } from 'saxes';
import { resolve } from 'node:path';
import { items } from '../src/imports/records/import-items';
import { firstCheckpoint, type ImportCheckpoint } from '../src/imports/read/import-checkpoint';
import type { ImportFormat } from '../src/imports/read/detect-format';
import { benchArgs, positiveInt } from './lib/args';
import { PIECE_BYTES, readTextChunks } from '../src/imports/read/text-chunks';

const args = benchArgs('npx tsx bench/import-parse.ts --file F [flags]: CPU of reading an import file, per pass', {
  file: { type: 'string', value: 'F', help: 'the file (an export kept by bench:import --keep-files)' },
  format: { type: 'string', default: 'BMEcat', value: 'F', help: 'BMEcat, BMEcat-ETIM, BMEcat12, CSV or ETIMxChange' },
  runs: { type: 'string', default: '3', value: 'N', help: 'how many times each pass runs (the figure is the fastest)' },
  'chunk-bytes': {
    type: 'string',
    default: String(PIECE_BYTES),
    value: 'N',
    help: 'bytes per body piece (the Worker reads PIECE_BYTES at a time)',
  },
  base: { type: 'string', value: 'DIR', help: "also run DIR/src's reader, alternating with this tree's" },
  floor: { type: 'boolean', help: 'also time saxes alone over the same pieces (BMEcat: the least a pass costs)' },
});
if (!args.file) throw new Error('--file is required (see --help)');
const bytes = new Uint8Array(readFileSync(args.file));
const runs = positiveInt('runs', args.runs);
const pieceBytes = positiveInt('chunk-bytes', args['chunk-bytes']);

/** The R2 calls the readers make (head, ranged get), over bytes in memory. */
const files = {
  async head() {
    return { size: bytes.length };
  },
  async get(_key: string, options?: { range?: { offset: number; length: number } }) {
    const start = options?.range?.offset ?? 0;
    const end = options?.range ? start + options.range.length : bytes.length;
    let at = start;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= end) return controller.close();
        controller.enqueue(bytes.slice(at, Math.min(end, at + pieceBytes)));
        at += pieceBytes;
      },
    });
    return { body, size: bytes.length };
  },
} as unknown as R2Bucket;

const cp: ImportCheckpoint = {
  ...firstCheckpoint(args.format as ImportFormat, 'utf-8'),
  language: 'deu',
  currency: 'EUR',
};

type Items = typeof items;
const trees: [string, Items][] = [['this tree', items]];
if (args.base) {
  const module = resolve(args.base, 'src/imports/records/import-items.ts');
  trees.unshift(['base', ((await import(module)) as { items: Items }).items]);
}

async function pass(read: Items, readProducts: boolean): Promise<{ seconds: number; records: number }> {
  const before = process.cpuUsage();
  let records = 0;
  for await (const piece of read({ files, key: 'file', cp }, cp.at, readProducts))
    for (const item of piece) if (item.kind === 'product') records++;
  const used = process.cpuUsage(before);
  return { seconds: (used.user + used.system) / 1e6, records };
}

/** saxes with no handlers over the file's pieces, as the reader feeds it. */
async function saxesAlone(): Promise<number> {
  const before = process.cpuUsage();
  const parser = new SaxesParser({ position: true });
  for await (const piece of readTextChunks(files, 'file', 0, 'utf-8')) parser.write(piece.text);
  parser.close();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

if (args.floor) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await saxesAlone());
  console.log(
    `saxes alone: CPU ${times.map((x) => x.toFixed(2)).join(' / ')} s (fastest ${Math.min(...times).toFixed(2)} s)`,
  );
}

for (const [name, readProducts] of [
  ['validation pass', false],
  ['products pass', true],
] as const) {
  const times = trees.map((): number[] => []);
  let records = 0;
  for (let i = 0; i < runs; i++)
    // alternating which tree goes first, so neither always runs in the other's garbage
    for (let k = 0; k < trees.length; k++) {
      const t = i % 2 === 0 ? k : trees.length - 1 - k;
      const r = await pass(trees[t]![1], readProducts);
      times[t]!.push(r.seconds);
      records = r.records;
    }
  for (const [t, [tree]] of trees.entries()) {
    const sorted = [...times[t]!].sort((a, b) => a - b);
    console.log(
      `${name}${trees.length > 1 ? ` (${tree})` : ''}: ${records} records, CPU ${times[t]!.map((x) => x.toFixed(2)).join(' / ')} s (fastest ${sorted[0]!.toFixed(2)} s, median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} s)`,
    );
  }
}
