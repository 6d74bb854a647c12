import { describe, expect, it } from 'vitest';
import { classGroupFilter, classGroupLabel } from '../src/editor/classification-api';

const groups = [
  { code: 'EG000017', name: 'Installation material' },
  { code: 'EG000020', name: 'Cable management' },
];

describe('the class picker filters by class group', () => {
  it('shows a group as its code and name, the code alone without a name', () => {
    expect(classGroupLabel(groups[0]!)).toBe('EG000017 Installation material');
    expect(classGroupLabel({ code: 'EG000099', name: null })).toBe('EG000099');
  });

  it('keeps the group chosen for the release in use', () => {
    expect(classGroupFilter({ release: 'ETIM-10.0', code: 'EG000020' }, 'ETIM-10.0', groups)).toBe('EG000020');
  });

  it('starts from all groups without a choice, on another release and on the built-in data', () => {
    expect(classGroupFilter(null, 'ETIM-10.0', groups)).toBe('');
    expect(classGroupFilter({ release: 'ETIM-9.0', code: 'EG000020' }, 'ETIM-10.0', groups)).toBe('');
    expect(classGroupFilter({ release: 'ETIM-10.0', code: 'EG000020' }, '', groups)).toBe('');
  });

  it("drops a group the release's list does not hold (or not yet: the list is still loading)", () => {
    expect(classGroupFilter({ release: 'ETIM-10.0', code: 'EG000999' }, 'ETIM-10.0', groups)).toBe('');
    expect(classGroupFilter({ release: 'ETIM-10.0', code: 'EG000017' }, 'ETIM-10.0', [])).toBe('');
  });
});
