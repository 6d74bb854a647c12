import { describe, expect, it } from 'vitest';
import { BOUNDARIES, LAYERS } from '../scripts/layers';
import { findCycles, findLayerViolations, type Layer, layerIndexOf } from '../scripts/lib/import-graph';

const graphOf = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

const TOY_LAYERS: Layer[] = [
  { name: 'kernel', why: '', paths: ['src/kernel/'] },
  { name: 'db', why: '', paths: ['src/db/'] },
  { name: 'domain', why: '', paths: ['src/catalog/', 'src/records/history-record.ts'] },
  { name: 'upper', why: '', paths: ['src/history/', 'src/**/*.routes.ts'] },
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
    expect(layerIndexOf('src/records/history-record.ts', TOY_LAYERS)).toBe(2);
    expect(layerIndexOf('src/history/restore.ts', TOY_LAYERS)).toBe(3);
    expect(layerIndexOf('src/catalog/catalog.routes.ts', TOY_LAYERS)).toBe(3);
    expect(layerIndexOf('src/catalog/upsert/upsert.routes.ts', TOY_LAYERS)).toBe(3);
    expect(layerIndexOf('src/catalog/upsert/write/node-writes.ts', TOY_LAYERS)).toBe(2);
    // the recording may not import the restore of its own folder
    const { upward } = findLayerViolations(
      graphOf({ 'src/records/history-record.ts': ['src/history/restore.ts'] }),
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
