import { describe, expect, it } from 'vitest';
import { newerRelease, newestRelease } from '../src/editor/classification-api';

describe('the editor tells a class on an old release', () => {
  it('orders releases by version as numbers (9.0 before 10.0), not as text', () => {
    expect(newestRelease(['ETIM-10.0', 'ETIM-8.0', 'ETIM-9.0'])).toBe('ETIM-10.0');
    expect(newestRelease([])).toBeUndefined();
  });

  it('names the newer loaded release for a class of an older one, nothing for the newest', () => {
    const loaded = ['ETIM-10.0', 'ETIM-9.0'];
    expect(newerRelease('ETIM-9.0', loaded)).toBe('ETIM-10.0');
    expect(newerRelease('ETIM-8.0', loaded)).toBe('ETIM-10.0');
    expect(newerRelease('ETIM-10.0', loaded)).toBeNull();
    expect(newerRelease('ETIM-11.0', loaded)).toBeNull();
    expect(newerRelease('ETIM-9.0', [])).toBeNull();
  });
});
