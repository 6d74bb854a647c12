/**
 * The pure half of `scripts/check-layers.ts`: given the import graph of the source files and
 * the layer table (`scripts/layers.ts`), finds import cycles, imports that point up (file by
 * file, and folder by folder as the tree shows them), and files the table does not place. No file system here, so a unit test can drive it with small
 * synthetic graphs (test/layers-check.test.ts).
 */

/** Every file (repository-relative path, `/`-separated) and the files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/**
 * One layer: the folders it holds and why it sits where it does. A folder (`src/db/`) holds every
 * file below it; a longer folder beats a shorter one (`src/sync/protocol/` in the kernel,
 * `src/sync/` above the catalog). A file that sits apart from its folder is an exception, named
 * with its reason: one file, or a glob (`src/**\/*.routes.ts`; `*` stays inside one folder, `**`
 * crosses folders). The most specific entry places a file: a file beats a glob beats a folder.
 */
export interface Layer {
  name: string;
  why: string;
  folders: readonly string[];
  exceptions?: readonly LayerException[];
}

/** A file or glob placed apart from its folder, and why. */
export interface LayerException {
  path: string;
  why: string;
}

/** A part of the repository that may import only from the listed places (e.g. the connector). */
export interface Boundary {
  from: string;
  mayImport: readonly string[];
}

const SPECIFICITY = { folder: 1, glob: 2, file: 3 } as const;

function globToRegExp(glob: string): RegExp {
  const source = glob
    .split('**/')
    .map((part) =>
      part
        .split('*')
        .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('(?:.*/)?');
  return new RegExp(`^${source}$`);
}

function matchScore(path: string, pattern: string): number | null {
  if (pattern.endsWith('/')) return path.startsWith(pattern) ? SPECIFICITY.folder * 1000 + pattern.length : null;
  if (pattern.includes('*')) return globToRegExp(pattern).test(path) ? SPECIFICITY.glob * 1000 : null;
  return path === pattern ? SPECIFICITY.file * 1000 : null;
}

interface Placement {
  index: number;
  exception: boolean;
}

function placementOf(path: string, layers: readonly Layer[], foldersOnly = false): Placement | null {
  let best: (Placement & { score: number }) | null = null;
  layers.forEach((layer, index) => {
    const entries = [
      ...layer.folders.map((pattern) => ({ pattern, exception: false })),
      ...(foldersOnly ? [] : (layer.exceptions ?? []).map(({ path: pattern }) => ({ pattern, exception: true }))),
    ];
    for (const { pattern, exception } of entries) {
      const score = matchScore(path, pattern);
      if (score !== null && (!best || score > best.score)) best = { index, exception, score };
    }
  });
  return best;
}

/** The index of the layer that holds `path` (0 = bottom), or null when no layer names it. */
export function layerIndexOf(path: string, layers: readonly Layer[]): number | null {
  return placementOf(path, layers)?.index ?? null;
}

/** The folder a file sits in, as the tree shows it (`src/catalog/upsert/`). */
export function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** Entries of the table in the wrong list: a folder must end in `/`, an exception must not. */
export function findTableProblems(layers: readonly Layer[]): string[] {
  return layers.flatMap((layer) => [
    ...layer.folders
      .filter((folder) => !folder.endsWith('/'))
      .map((folder) => `${layer.name}: '${folder}' is listed as a folder (end it in /, or make it an exception)`),
    ...(layer.exceptions ?? [])
      .filter(({ path, why }) => path.endsWith('/') || why.trim() === '')
      .map(({ path }) => `${layer.name}: exception '${path}' must name a file or glob, with its reason`),
  ]);
}

/**
 * Import cycles between files, each as a path that returns to its start (`a → b → a`), one per
 * strongly connected component (Tarjan), so a tangle of many files is reported once.
 */
export function findCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;

  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfImport = component.length === 1 && (graph.get(node) ?? []).includes(node);
      if (component.length > 1 || selfImport) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => cycleThrough(graph, new Set(component)));
}

/** One concrete cycle inside a strongly connected component, starting at its first file by name. */
function cycleThrough(graph: ImportGraph, component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of graph.get(node) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

export interface Finding {
  from: string;
  to: string;
  reason: string;
}

/** Imports from a lower layer to a higher one, imports across a boundary, and files no layer places. */
export function findLayerViolations(
  graph: ImportGraph,
  layers: readonly Layer[],
  boundaries: readonly Boundary[] = [],
): { upward: Finding[]; crossing: Finding[]; unplaced: string[] } {
  const upward: Finding[] = [];
  const crossing: Finding[] = [];
  const unplaced = new Set<string>();
  for (const [from, targets] of graph) {
    const boundary = boundaries.find((b) => from.startsWith(b.from));
    for (const to of targets) {
      if (boundary) {
        if (!boundary.mayImport.some((allowed) => to.startsWith(allowed)))
          crossing.push({ from, to, reason: `${boundary.from} may import only ${boundary.mayImport.join(', ')}` });
        continue;
      }
      const fromLayer = layerIndexOf(from, layers);
      const toLayer = layerIndexOf(to, layers);
      if (fromLayer === null) unplaced.add(from);
      if (toLayer === null) unplaced.add(to);
      if (fromLayer === null || toLayer === null) continue;
      if (toLayer > fromLayer)
        upward.push({ from, to, reason: `${layers[fromLayer]!.name} imports ${layers[toLayer]!.name}` });
    }
  }
  return { upward, crossing, unplaced: [...unplaced].sort() };
}

/**
 * The imports of the tree drawn by folder: each file is its folder, and an arrow between two
 * folders points up when the imported folder sits higher than the importing file. A file
 * imported from outside its folder counts at least at its folder's height: a file named below
 * its folder would otherwise let a lower folder reach into a higher one unseen (issue 31:
 * `catalog/` imported by six domains through files named one by one). An exception that sits
 * above its folder (a route file beside its domain) is its own box, for what it imports and for
 * what imports it. One finding per pair of boxes, with the first import that draws it.
 */
export function findFolderViolations(
  graph: ImportGraph,
  layers: readonly Layer[],
  boundaries: readonly Boundary[] = [],
): Finding[] {
  const arrows = new Map<string, Finding & { count: number; example: string }>();
  for (const [from, targets] of graph) {
    if (boundaries.some((b) => from.startsWith(b.from))) continue;
    const fromPlace = placementOf(from, layers);
    if (!fromPlace) continue;
    for (const to of targets) {
      if (folderOf(from) === folderOf(to)) continue;
      const toPlace = placementOf(to, layers);
      if (!toPlace) continue;
      const toFolderIndex = placementOf(folderOf(to), layers, true)?.index ?? -1;
      const seenAt = Math.max(toPlace.index, toFolderIndex);
      if (seenAt <= fromPlace.index) continue;
      const fromBox = fromPlace.exception || placementOf(folderOf(from), layers, true) === null ? from : folderOf(from);
      const toBox = toFolderIndex >= toPlace.index ? folderOf(to) : to;
      const key = `${fromBox} → ${toBox}`;
      const arrow = arrows.get(key);
      if (arrow) {
        arrow.count++;
        continue;
      }
      arrows.set(key, {
        from: fromBox,
        to: toBox,
        reason: `${layers[fromPlace.index]!.name} imports ${layers[seenAt]!.name}`,
        count: 1,
        example: `${from} → ${to}`,
      });
    }
  }
  return [...arrows.values()].map(({ from, to, reason, count, example }) => ({
    from,
    to,
    reason: `${reason}: ${example}${count > 1 ? `, and ${count - 1} more` : ''}`,
  }));
}
