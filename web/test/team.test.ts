import { describe, expect, it } from 'vitest';
import { translator } from '../src/i18n/i18n';
import {
  actionText,
  changeLines,
  chosenPermissions,
  invitationToken,
  parseLanguages,
  roleName,
  categoryScopeNames,
  scopeSummary,
  ssoRoleNote,
  takesLanguages,
} from '../src/lib/team';

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

const CUSTOM = [
  { roleId: '0192f000-0000-7000-8000-000000000001', name: 'Agentur', permissions: ['read', 'product.write'] },
  { roleId: '0192f000-0000-7000-8000-000000000002', name: 'Lektorat', permissions: ['read', 'text.write'] },
];

describe('custom roles in words', () => {
  it('names a built-in role in the language and a custom one by its name, else its id', () => {
    expect(roleName('translator', de)).toBe('Übersetzer');
    expect(roleName(CUSTOM[0]!.roleId, en, CUSTOM)).toBe('Agentur');
    expect(roleName(CUSTOM[0]!.roleId, en, 'Agentur')).toBe('Agentur');
    expect(roleName('0192f000-0000-7000-8000-00000000ffff', en, CUSTOM)).toBe('0192f000-0000-7000-8000-00000000ffff');
  });
  it('offers languages to a role that writes texts but not products', () => {
    expect(takesLanguages('translator', [])).toBe(true);
    expect(takesLanguages('editor', CUSTOM)).toBe(false);
    expect(takesLanguages(CUSTOM[1]!.roleId, CUSTOM)).toBe(true);
    expect(takesLanguages(CUSTOM[0]!.roleId, CUSTOM)).toBe(false);
  });
  it('sends read always, each permission once, in the fixed order', () => {
    expect(chosenPermissions(new Set(['publish', 'text.write']))).toEqual(['read', 'text.write', 'publish']);
    expect(chosenPermissions(new Set(['company.admin']))).toEqual(['read']);
  });
  it('records role and access changes in words', () => {
    expect(actionText('create-role', de)).toBe('Rolle angelegt');
    expect(actionText('delete-role', en)).toBe('Role deleted');
    expect(
      changeLines(
        {
          changes: [
            { path: 'name', before: null, after: 'Agentur' },
            { path: 'permissions', before: null, after: ['read', 'publish'] },
            { path: 'catalogIds', before: [], after: ['c1'] },
          ],
        },
        en,
      ),
    ).toEqual(['Name: – → Agentur', 'Permissions: – → Read everything, Export and sync', 'Catalogs: none → c1']);
  });
});

describe("a member's access in a few words", () => {
  it('names catalogs and channels, keeps unknown ids, and says everything when unlimited', () => {
    const names = new Map([
      ['c1', 'Marke A'],
      ['ch1', 'Shop'],
    ]);
    expect(scopeSummary({ catalogIds: ['c1'], categoryIds: ['x9'], channelIds: ['ch1'] }, names, de)).toBe(
      'Kataloge: Marke A · Kategorien: x9 · Kanäle: Shop',
    );
    expect(scopeSummary({ catalogIds: [], categoryIds: [], channelIds: [] }, names, en)).toBe('everything');
  });

  it('names a category by its path, so two subcategories of one name read apart; one not loaded stays an id', () => {
    const categories = categoryScopeNames([
      { categoryId: 'k1', path: [{ name: 'Marke A' }, { name: 'Schalter' }] },
      { categoryId: 'k2', path: [{ name: 'Marke B' }, { name: 'Schalter' }] },
      undefined,
    ]);
    const names = new Map([['c1', 'Marke A'], ...categories]);
    expect(scopeSummary({ catalogIds: ['c1'], categoryIds: ['k1', 'k2', 'k3'], channelIds: [] }, names, en)).toBe(
      'Catalogs: Marke A · Categories: Marke A › Schalter, Marke B › Schalter, k3',
    );
  });
});

describe("an SSO member's role given by hand", () => {
  it('says which role single sign-on maps when it differs, and nothing otherwise', () => {
    const custom = [{ roleId: 'r1', name: 'Agentur' }];
    expect(ssoRoleNote({ role: 'viewer', ssoMappedRole: 'editor' }, en, custom)).toBe(
      `given by hand; single sign-on maps ${roleName('editor', en)}, which applies once the mapping changes`,
    );
    expect(ssoRoleNote({ role: 'editor', ssoMappedRole: 'r1' }, de, custom)).toContain('Agentur');
    expect(ssoRoleNote({ role: 'editor', ssoMappedRole: 'editor' }, en, custom)).toBeNull();
    expect(ssoRoleNote({ role: 'editor', ssoMappedRole: null }, en, custom)).toBeNull();
  });
});
