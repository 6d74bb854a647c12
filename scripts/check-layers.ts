/**
 * Layers point down (STYLE.md, docs/architecture.md): reads every .ts/.tsx under src/ and
 * connector/src, resolves their relative imports (`import type` and `export ... from`
 * included: a type-only cycle still ties two files together), and fails with a readable list
 * on any import cycle between files, any import from a lower layer of `scripts/layers.ts` to a
 * higher one, file by file and folder by folder (the tree drawn as boxes, one per folder), any
 * file the table does not place, and any connector import outside what the connector may share. Runs in `npm test` right after `check:standalone`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import {
  findCycles,
  findFolderViolations,
  findLayerViolations,
  findTableProblems,
  folderOf,
  type ImportGraph,
} from './lib/import-graph';
import { BOUNDARIES, LAYERS } from './layers';

const ROOT = join(import.meta.dirname, '..');
const SCANNED = ['src', 'connector/src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = posix.join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The repository path a relative specifier names, as the bundler resolves it; null for packages. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = posix.normalize(posix.join(posix.dirname(from), specifier)).replace(/\.js$/, '');
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find((path) => existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isFile()) ?? null;
}

function importGraph(files: string[]): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    const targets = importedFiles
      .map((entry) => resolveImport(file, entry.fileName))
      .filter((path): path is string => path !== null && path !== file);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

const graph = importGraph(SCANNED.flatMap(sourceFiles));
const cycles = findCycles(graph);
const { upward, crossing, unplaced } = findLayerViolations(graph, LAYERS, BOUNDARIES);
const folderUpward = findFolderViolations(graph, LAYERS, BOUNDARIES);
const tableProblems = findTableProblems(LAYERS);

const problems: string[] = [];
if (tableProblems.length > 0)
  problems.push(`The layer table (scripts/layers.ts):\n${tableProblems.map((p) => `  ${p}`).join('\n')}`);
if (cycles.length > 0)
  problems.push(
    `Import cycles (move the shared part down, or pass a function in):\n${cycles.map((c) => `  ${c.join(' → ')}`).join('\n')}`,
  );
if (upward.length > 0)
  problems.push(
    `Imports that point up (scripts/layers.ts):\n${upward.map((f) => `  ${f.from} → ${f.to} (${f.reason})`).join('\n')}`,
  );
if (folderUpward.length > 0)
  problems.push(
    `Folders that point up (give the part the lower folder needs a folder of its own down there):\n${folderUpward.map((f) => `  ${f.from} → ${f.to} (${f.reason})`).join('\n')}`,
  );
if (crossing.length > 0)
  problems.push(`Imports across a boundary:\n${crossing.map((f) => `  ${f.from} → ${f.to} (${f.reason})`).join('\n')}`);
if (unplaced.length > 0)
  problems.push(
    `Files no layer of scripts/layers.ts places (add them to a layer):\n${unplaced.map((p) => `  ${p}`).join('\n')}`,
  );

if (problems.length > 0) {
  console.error(problems.join('\n\n'));
  process.exit(1);
}
const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
const folders = new Set([...graph.keys()].map(folderOf));
const folderArrows = new Set(
  [...graph].flatMap(([from, targets]) =>
    targets.filter((to) => folderOf(to) !== folderOf(from)).map((to) => `${folderOf(from)} ${folderOf(to)}`),
  ),
);
console.log(
  `check:layers: ${graph.size} files, ${edges} imports; ${folders.size} folders, ${folderArrows.size} arrows between them: no cycle, none pointing up`,
);
