import { describe, expect, it } from 'vitest';
import { BOUNDARIES, LAYERS } from '../scripts/layers';
import {
  findCycles,
  findFolderViolations,
  findLayerViolations,
  findTableProblems,
  type Layer,
  layerIndexOf,
} from '../scripts/lib/import-graph';

const graphOf = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

const TOY_LAYERS: Layer[] = [
  { name: 'kernel', why: '', folders: ['src/kernel/'] },
  { name: 'db', why: '', folders: ['src/db/'] },
  { name: 'domain', why: '', folders: ['src/catalog/'], exceptions: [{ path: 'src/history/record.ts', why: 'toy' }] },
  {
    name: 'upper',
    why: '',
    folders: ['src/history/'],
    exceptions: [{ path: 'src/**/*.routes.ts', why: 'toy' }],
  },
];

describe('check:layers (scripts/lib/import-graph.ts)', () => {
  it('reports a cycle of type-only imports as a path back to its start', () => {
    const cycles = findCycles(
      graphOf({
        'src/catalog/a.ts': ['src/catalog/b.ts'],
        'src/catalog/b.ts': ['src/catalog/c.ts'],
        'src/catalog/c.ts': ['src/catalog/a.ts', 'src/kernel/ids.ts'],
        'src/kernel/ids.ts': [],
      }),
    );
    expect(cycles).toEqual([['src/catalog/a.ts', 'src/catalog/b.ts', 'src/catalog/c.ts', 'src/catalog/a.ts']]);
  });

  it('reports each tangle once and finds none in a graph that only points down', () => {
    const tangled = graphOf({
      'x.ts': ['y.ts', 'z.ts'],
      'y.ts': ['x.ts'],
      'z.ts': ['x.ts'],
      'self.ts': ['self.ts'],
    });
    expect(findCycles(tangled)).toHaveLength(2);
    expect(findCycles(graphOf({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': [] }))).toEqual([]);
  });

  it('reports an import from a lower layer to a higher one, and accepts the same import downward', () => {
    const upward = findLayerViolations(graphOf({ 'src/db/schema.ts': ['src/catalog/groups.ts'] }), TOY_LAYERS);
    expect(upward.upward).toEqual([
      { from: 'src/db/schema.ts', to: 'src/catalog/groups.ts', reason: 'db imports domain' },
    ]);
    const downward = findLayerViolations(graphOf({ 'src/catalog/groups.ts': ['src/db/schema.ts'] }), TOY_LAYERS);
    expect(downward).toEqual({ upward: [], crossing: [], unplaced: [] });
  });

  it('places a file by its most specific path: a named file or a glob beats its folder', () => {
    expect(layerIndexOf('src/history/record.ts', TOY_LAYERS)).toBe(2);
    expect(layerIndexOf('src/history/restore.ts', TOY_LAYERS)).toBe(3);
    expect(layerIndexOf('src/catalog/catalog.routes.ts', TOY_LAYERS)).toBe(3);
    expect(layerIndexOf('src/catalog/upsert/upsert.routes.ts', TOY_LAYERS)).toBe(3);
    expect(layerIndexOf('src/catalog/upsert/write/node-writes.ts', TOY_LAYERS)).toBe(2);
    // the recording may not import the restore of its own folder
    const { upward } = findLayerViolations(
      graphOf({ 'src/history/record.ts': ['src/history/restore.ts'] }),
      TOY_LAYERS,
    );
    expect(upward).toHaveLength(1);
  });

  it('reports files no layer places and imports across a boundary', () => {
    const result = findLayerViolations(
      graphOf({
        'src/stray/thing.ts': ['src/kernel/ids.ts'],
        'connector/src/app.ts': ['src/sync/protocol/wire.ts', 'src/catalog/values.ts'],
      }),
      TOY_LAYERS,
      BOUNDARIES,
    );
    expect(result.unplaced).toEqual(['src/stray/thing.ts']);
    expect(result.crossing).toEqual([
      {
        from: 'connector/src/app.ts',
        to: 'src/catalog/values.ts',
        reason: 'connector/ may import only connector/, src/sync/protocol/',
      },
    ]);
  });

  it('reports a folder that imports a higher folder through a file named below it, which the file check lets pass', () => {
    // issue 31: the catalog reached history's recording, named one by one below the catalog
    const graph = graphOf({
      'src/catalog/write.ts': ['src/history/record.ts'],
      'src/history/record.ts': ['src/db/schema.ts'],
      'src/history/restore.ts': ['src/history/record.ts', 'src/catalog/write.ts'],
      'src/db/schema.ts': [],
    });
    expect(findLayerViolations(graph, TOY_LAYERS)).toEqual({ upward: [], crossing: [], unplaced: [] });
    expect(findFolderViolations(graph, TOY_LAYERS)).toEqual([
      {
        from: 'src/catalog/',
        to: 'src/history/',
        reason: 'domain imports upper: src/catalog/write.ts → src/history/record.ts',
      },
    ]);
  });

  it('draws a route file beside its domain as its own box, and counts every import of one folder pair once', () => {
    const graph = graphOf({
      'src/catalog/catalog.routes.ts': ['src/history/versions.ts', 'src/catalog/catalog.ts'],
      'src/kernel/ids.ts': ['src/db/schema.ts', 'src/db/client.ts'],
    });
    expect(findFolderViolations(graph, TOY_LAYERS)).toEqual([
      {
        from: 'src/kernel/',
        to: 'src/db/',
        reason: 'kernel imports db: src/kernel/ids.ts → src/db/schema.ts, and 1 more',
      },
    ]);
  });

  it('refuses a file listed as a folder and an exception without its reason', () => {
    expect(
      findTableProblems([
        { name: 'a', why: '', folders: ['src/a.ts'] },
        { name: 'b', why: '', folders: [], exceptions: [{ path: 'src/b.ts', why: ' ' }] },
      ]),
    ).toEqual([
      "a: 'src/a.ts' is listed as a folder (end it in /, or make it an exception)",
      "b: exception 'src/b.ts' must name a file or glob, with its reason",
    ]);
    expect(findTableProblems(LAYERS)).toEqual([]);
  });

  it("places the project's files as docs/architecture.md describes", () => {
    const layerOf = (path: string) => LAYERS[layerIndexOf(path, LAYERS) ?? -1]?.name;
    expect(layerOf('src/kernel/caller.ts')).toBe('kernel');
    expect(layerOf('src/db/schema.ts')).toBe('db');
    expect(layerOf('src/records/history-record.ts')).toBe('records');
    expect(layerOf('src/history/restore.ts')).toBe('history');
    expect(layerOf('src/catalog/catalog.routes.ts')).toBe('surfaces');
    expect(layerOf('src/runners/queue-consumer.ts')).toBe('runners');
    expect(layerOf('src/index.ts')).toBe('composition');
  });
});
