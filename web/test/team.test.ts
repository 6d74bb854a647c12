import { describe, expect, it } from 'vitest';
import { translator } from '../src/i18n/i18n';
import { actionText, changeLines, invitationToken, parseLanguages } from '../src/lib/team';

const en = translator('en');
const de = translator('de');

describe('the token of an invitation link', () => {
  it('is the fragment of /invitation#<token>', () => {
    expect(invitationToken('#abcDEF0123456789_-xyzXYZ012')).toBe('abcDEF0123456789_-xyzXYZ012');
  });
  it('is null for no fragment, a short one or one with other characters', () => {
    expect(invitationToken('')).toBeNull();
    expect(invitationToken('#short')).toBeNull();
    expect(invitationToken('#abcDEF0123456789/xyzXYZ012')).toBeNull();
  });
});

describe("a translator's languages as typed", () => {
  it('splits on commas and spaces, lower-cases and drops duplicates', () => {
    expect(parseLanguages(' FRA, eng;fra  ita ')).toEqual(['fra', 'eng', 'ita']);
    expect(parseLanguages('  ')).toEqual([]);
  });
});

describe('the audit in words', () => {
  it('names the action in German and English', () => {
    expect(actionText('deactivate', de)).toBe('Deaktiviert');
    expect(actionText('revoke-invitation', en)).toBe('Invitation revoked');
  });
  it('says what changed, with role names, leaving out what stayed', () => {
    const item = {
      changes: [
        { path: 'role', before: 'editor', after: 'translator' },
        { path: 'languages', before: [], after: ['fra'] },
        { path: 'email', before: 'same@x.example', after: 'same@x.example' },
      ],
    };
    expect(changeLines(item, de)).toEqual(['Rolle: Redakteur → Übersetzer', 'Sprachen: alle Sprachen → fra']);
    expect(changeLines({ changes: [{ path: 'status', before: 'active', after: 'deactivated' }] }, en)).toEqual([
      'Status: Active → Deactivated',
    ]);
    expect(changeLines({ changes: [{ path: 'role', before: null, after: 'viewer' }] }, en)).toEqual([
      'Role: – → Viewer',
    ]);
  });
});
