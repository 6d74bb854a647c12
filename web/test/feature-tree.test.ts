import { describe, expect, it } from 'vitest';
import { featureTree, headingGroups, keptParts } from '../src/editor/feature-tree';

describe('featureTree (the eCl@ss Advanced tree in the feature block editor)', () => {
  it('indents each feature under its parent and heads each FEATURE_GROUP, in stored order', () => {
    const rows = featureTree(
      [
        { fid: '5000', parentId: '-1' },
        { fid: '50001', parentId: '5000' },
        { fid: '500011', parentId: '50001' },
        { fid: '500012', parentId: '50001' },
        { fid: '1000', parentId: '-1', featureGroup: 0 },
        { fid: '1003', parentId: '1000', featureGroup: 0 },
        { fid: '711', parentId: '-1', featureGroup: 1 },
        { fid: '712', parentId: '-1', featureGroup: 1 },
        { fid: '7121', parentId: '712', featureGroup: 1 },
      ],
      [{ id: '0173-1#01-ADN228#005' }, { id: '0173-1#01-ADN292#005', name: 'Teilebeziehungen' }],
    );
    expect(rows.map((r) => r.depth)).toEqual([0, 1, 2, 2, 0, 1, 0, 0, 1]);
    expect(rows.map((r) => r.groupHeading)).toEqual([
      null,
      null,
      null,
      null,
      '0173-1#01-ADN228#005',
      null,
      'Teilebeziehungen · 0173-1#01-ADN292#005',
      null,
      null,
    ]);
  });

  it('finds a parent in its own FEATURE_GROUP first, and ends a loop of FPARENT_IDs', () => {
    const rows = featureTree(
      [
        { fid: '0', parentId: '-1' },
        { fid: '1', parentId: '0' },
        { fid: '0', parentId: '-1', featureGroup: 0 },
        { fid: '9', parentId: '1', featureGroup: 0 },
        { fid: 'a', parentId: 'b' },
        { fid: 'b', parentId: 'a' },
        {},
        { fid: 'x', parentId: 'missing' },
      ],
      [{ id: 'G' }],
    );
    // `9`'s parent `1` is not in its group: found in the block (depth 2); `0` of the group is its own root.
    expect(rows.map((r) => r.depth)).toEqual([0, 1, 0, 2, 1, 0, 0, 0]);
  });

  it('keeps the value languages on save only while there is one per value', () => {
    const rest = { ftId: 'A', values: ['Relais', 'Relay'], valueLangs: ['deu', 'eng'], fid: '1' };
    expect(keptParts(rest, ['Relais', 'Relay'])).toEqual(rest);
    expect(keptParts(rest, ['Relais', 'Relay', 'Relè'])).toEqual({ ftId: 'A', values: ['Relais', 'Relay'], fid: '1' });
  });
});

describe('headingGroups (an ETIM modelling class in the feature block editor)', () => {
  it('heads each port of an ETIM-MC block with its port code and connection type; other blocks keep their groups', () => {
    const ports = [{ id: '1', connectionType: 'CT000001', connectionTypeVersion: 4 }, { id: '2' }];
    const groups = headingGroups('ETIM-MC', ports, (port) => `Port ${port}`);
    const rows = featureTree([{ featureGroup: 0 }, { featureGroup: 0 }, { featureGroup: 1 }], groups);
    expect(rows.map((r) => r.groupHeading)).toEqual(['Port 1 · CT000001 v4', null, 'Port 2']);
    expect(headingGroups('ECLASS-ADV', [{ id: 'G1', name: 'Hersteller' }], () => 'x')).toEqual([
      { id: 'G1', name: 'Hersteller' },
    ]);
  });
});
