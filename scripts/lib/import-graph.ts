/**
 * The pure half of `scripts/check-layers.ts`: given the import graph of the source files and
 * the layer table (`scripts/layers.ts`), finds import cycles, imports that point up, and files
 * the table does not place. No file system here, so a unit test can drive it with small
 * synthetic graphs (test/layers-check.test.ts).
 */

/** Every file (repository-relative path, `/`-separated) and the files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/**
 * One layer: the paths it holds and why it sits where it does. A path is a folder (`src/db/`),
 * a glob (`src/**\/*.routes.ts`; `*` stays inside one folder, `**` crosses folders) or one
 * file. The most specific path places a file: a file beats a glob beats a folder, and a longer
 * folder beats a shorter one.
 */
export interface Layer {
  name: string;
  why: string;
  paths: readonly string[];
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

/** The index of the layer that holds `path` (0 = bottom), or null when no layer names it. */
export function layerIndexOf(path: string, layers: readonly Layer[]): number | null {
  let best: { index: number; score: number } | null = null;
  layers.forEach((layer, index) => {
    for (const pattern of layer.paths) {
      const score = matchScore(path, pattern);
      if (score !== null && (!best || score > best.score)) best = { index, score };
    }
  });
  return (best as { index: number } | null)?.index ?? null;
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
