import { describe, expect, it } from 'vitest';
import type { ShopDefaults, ShopKind } from '../src/api/models';
import { SHOP_KINDS } from '../src/api/models';
import {
  attributesParams,
  codesInUseParams,
  connectorTestFields,
  filterCodes,
  searchedCodes,
  draftForKind,
  draftOfShop,
  languageRows,
  mappingChanges,
  mappingOf,
  resetMapping,
  shopInputOf,
  shopProblems,
  toggleCode,
} from '../src/lib/shop-form';
import { defaultMapping, fillMapping, TARGET_CREDENTIALS, TARGET_KINDS } from '../../src/sync/protocol/target';

/** What GetShopDefaults answers for a kind (src/sync/connection-shop.ts shopDefaults), built from the same source. */
const CATALOG_FOR_TICKS = { language: 'deu', languages: ['deu'] };

const defaultsOf = (kind: ShopKind): ShopDefaults => ({
  kind,
  mapping: defaultMapping(kind),
  urlRequired: kind !== 'reference',
  credentials: TARGET_CREDENTIALS[kind],
});
const german = { language: 'deu', languages: ['deu', 'eng'] };

describe('the shop kinds the form offers', () => {
  it('are every kind the server knows', () => {
    expect([...SHOP_KINDS].sort()).toEqual([...TARGET_KINDS].sort());
  });
});

describe('shop form and mapping', () => {
  it("starts a kind with its defaults and the catalog's language, and a new shop sends no mapping for a German catalog", () => {
    const draft = draftForKind(defaultsOf('shopware'), german, 'https://shop.example');
    expect(draft.languages).toEqual([
      { language: 'deu', locale: 'de-DE' },
      { language: 'eng', locale: 'en-GB' },
      { language: 'fra', locale: 'fr-FR' },
    ]);
    expect(mappingOf(draft)).toEqual(defaultMapping('shopware'));
    expect(shopInputOf(draft, defaultsOf('shopware'))).toEqual({
      kind: 'shopware',
      url: 'https://shop.example',
      mapping: {},
    });
  });

  it("names the catalog's own language as the default language when it is not German", () => {
    const draft = draftForKind(defaultsOf('shopify'), { language: 'eng', languages: ['eng'] });
    expect(shopInputOf(draft, defaultsOf('shopify')).mapping).toEqual({ defaultLanguage: 'eng' });
  });

  it('sends only what differs from the defaults, and the server fills the rest back to what the form showed', () => {
    const defaults = defaultsOf('vendure');
    const draft = {
      ...draftForKind(defaults, german, 'https://shop.example/admin-api'),
      priceType: 'net_customer',
      currency: 'chf',
      values: 'some' as const,
      valueCodes: 'colour, length\nweight',
      featureBlocks: 'udf_NMNG\n\nECLASS-14.0',
      onDeactivate: 'delete' as const,
      imagePurposes: ['normal', 'detail'],
    };
    draft.languages = draft.languages.map((r) => (r.language === 'fra' ? { ...r, locale: '' } : r));
    const input = shopInputOf(draft, defaults);
    expect(input.mapping).toEqual({
      languages: { deu: 'de', eng: 'en' },
      priceType: 'net_customer',
      currency: 'CHF',
      features: { values: ['colour', 'length', 'weight'], featureBlocks: ['udf_NMNG', 'ECLASS-14.0'] },
      onDeactivate: 'delete',
      imagePurposes: ['normal', 'detail'],
    });
    const stored = fillMapping('vendure', input.mapping!);
    expect(stored).toEqual(mappingOf(draft));
    // Read back, the form shows the same choices (French, not published by the catalog and not sent, has no row).
    const again = draftOfShop({ kind: 'vendure', url: draft.url, mapping: stored, hasCredentials: true }, german);
    expect(mappingOf(again)).toEqual(mappingOf(draft));
    expect(again.languages.map((r) => r.language)).toEqual(['deu', 'eng']);
  });

  it('reads "no attribute values" and "all" back as the choice, not as a code list', () => {
    const mapping = {
      ...defaultMapping('medusa'),
      features: { classification: false, values: false, featureBlocks: [] },
    };
    const draft = draftOfShop({ kind: 'medusa', url: 'https://api.example', mapping, hasCredentials: true }, german);
    expect(draft).toMatchObject({ values: 'none', valueCodes: '', classification: false });
    expect(mappingChanges(mappingOf(draft), defaultMapping('medusa'))).toEqual({
      features: { classification: false, values: false },
    });
  });

  it("lists the catalog's languages first, then the others the mapping names; a language without locale is not sent", () => {
    expect(languageRows({ fra: 'fr', deu: 'de' }, ['eng', 'deu'])).toEqual([
      { language: 'eng', locale: '' },
      { language: 'deu', locale: 'de' },
      { language: 'fra', locale: 'fr' },
    ]);
  });

  it('resets the mapping to the defaults and keeps kind, address and typed credentials', () => {
    const defaults = defaultsOf('shopify');
    const changed = {
      ...draftForKind(defaults, german, 'https://x.myshopify.com'),
      currency: 'USD',
      references: false,
      credentials: { accessToken: 'shpat_1' },
    };
    const reset = resetMapping(changed, defaults, german);
    expect(reset).toMatchObject({ url: 'https://x.myshopify.com', credentials: { accessToken: 'shpat_1' } });
    expect(mappingOf(reset)).toEqual(defaultMapping('shopify'));
  });
});

describe('credentials in the form', () => {
  it('sends the chosen set only, and leaves credentials out when none are typed (the stored ones stay)', () => {
    const defaults = defaultsOf('vendure');
    const draft = { ...draftForKind(defaults, german, 'https://v.example/admin-api'), credentialSet: 1 };
    expect(shopInputOf(draft, defaults)).not.toHaveProperty('credentials');
    const typed = { ...draft, credentials: { username: 'left-over', token: 'tok' } };
    expect(shopInputOf(typed, defaults).credentials).toEqual({ token: 'tok' });
  });

  it('asks for every field of the set, and for credentials at all unless stored ones are kept', () => {
    const defaults = defaultsOf('shopware');
    const draft = draftForKind(defaults, german, 'https://shop.example');
    expect(shopProblems(draft, defaults, false)).toEqual({ credentials: 'credentialsRequired' });
    expect(shopProblems(draft, defaults, true)).toEqual({});
    expect(shopProblems({ ...draft, credentials: { clientId: 'id' } }, defaults, true)).toEqual({
      credentials: 'credentialsRequired',
    });
    expect(shopProblems({ ...draft, credentials: { clientId: 'id', clientSecret: 's' } }, defaults, false)).toEqual({});
  });

  it('needs an address except for the reference store, and a three-letter currency', () => {
    const reference = draftForKind(defaultsOf('reference'), german);
    expect(shopProblems(reference, defaultsOf('reference'), false)).toEqual({});
    const shopify = { ...draftForKind(defaultsOf('shopify'), german), credentials: { accessToken: 't' } };
    expect(shopProblems(shopify, defaultsOf('shopify'), false)).toEqual({ url: 'urlRequired' });
    expect(shopProblems({ ...shopify, url: 'shop.example', currency: 'EURO' }, defaultsOf('shopify'), false)).toEqual({
      url: 'urlInvalid',
      currency: 'currency',
    });
  });
});

describe("a pick list's tick on a list of codes", () => {
  it('adds a ticked code at the end and removes an unticked one, keeping the codes typed by hand', () => {
    expect(toggleCode('', 'UNSPSC', true, '\n')).toBe('UNSPSC');
    expect(toggleCode('udf_OWN\nUNSPSC', 'ECLASS-14.0', true, '\n')).toBe('udf_OWN\nUNSPSC\nECLASS-14.0');
    expect(toggleCode('udf_OWN\nUNSPSC\n', 'UNSPSC', false, '\n')).toBe('udf_OWN');
    expect(toggleCode('color, size', 'size', true, ', ')).toBe('color, size');
    expect(toggleCode('color,size, weight', 'size', false, ', ')).toBe('color, weight');
  });

  it('sends what the ticks made (mappingOf reads the same list)', () => {
    const draft = { ...draftForKind(defaultsOf('shopware'), CATALOG_FOR_TICKS), values: 'some' as const };
    const ticked = { ...draft, valueCodes: toggleCode('own_code', 'color', true, ', ') };
    expect(mappingOf(ticked).features.values).toEqual(['own_code', 'color']);
  });
});

describe('the connector fields of a test of unsaved settings', () => {
  const draft = { catalogId: 'cat-1', connectorUrl: ' https://connector.example ', keyId: ' key-1 ', secret: '' };

  it('sends the edited catalog, URL and key, and the secret only when typed (empty: the saved one)', () => {
    expect(connectorTestFields(draft, true)).toEqual({
      fields: { catalogId: 'cat-1', connectorUrl: 'https://connector.example', keyId: 'key-1' },
    });
    expect(connectorTestFields({ ...draft, secret: 'new-secret-of-16+' }, true)).toEqual({
      fields: {
        catalogId: 'cat-1',
        connectorUrl: 'https://connector.example',
        keyId: 'key-1',
        secret: 'new-secret-of-16+',
      },
    });
  });

  it('names what a connection not saved yet lacks instead of sending it', () => {
    expect(connectorTestFields(draft, false)).toEqual({ missing: ['secret'] });
    expect(connectorTestFields({ catalogId: '', connectorUrl: ' ', keyId: '', secret: '' }, false)).toEqual({
      missing: ['catalogId', 'connectorUrl', 'keyId', 'secret'],
    });
    expect(connectorTestFields({ ...draft, connectorUrl: '' }, true)).toEqual({ missing: ['connectorUrl'] });
  });
});

describe("a long pick list's filter", () => {
  const codes = ['ECLASS', 'ETIM', 'UNSPSC', 'proficlass'];

  it('keeps the codes whose code or label contains the text, case ignored, in their order', () => {
    expect(filterCodes(codes, 'cl', new Set())).toEqual(['ECLASS', 'proficlass']);
    expect(filterCodes(codes, '  ', new Set())).toEqual(codes);
    const labels: Record<string, string> = { ETIM: 'Electro-Technical Information Model' };
    expect(filterCodes(codes, 'information', new Set(), (c) => labels[c] ?? c)).toEqual(['ETIM']);
  });

  it('never hides a ticked code', () => {
    expect(filterCodes(codes, 'unspsc', new Set(['ETIM']))).toEqual(['ETIM', 'UNSPSC']);
    expect(filterCodes(codes, 'nothing like it', new Set())).toEqual([]);
  });
});

describe("the attribute-code pick list's search on the server (GetAttributes q)", () => {
  it('asks pages of GetAttributes with the filter text trimmed as q, no q for a blank one, cut to 100', () => {
    expect(attributesParams('  farb ', 500, undefined)).toEqual({ limit: 500, q: 'farb' });
    expect(attributesParams('   ', 500, 'c1')).toEqual({ limit: 500, cursor: 'c1' });
    expect(attributesParams('x'.repeat(150), 500, undefined).q).toHaveLength(100);
  });
});

describe("a pick list's search on the server (GetCodesInUse q)", () => {
  const catalogId = '00000000-0000-4000-8000-000000000001';
  it('sends the filter text trimmed as q, and no q for a blank one', () => {
    expect(codesInUseParams(catalogId, 'featureSystems', '  ecl ', 500, undefined)).toEqual({
      catalogId,
      list: 'featureSystems',
      limit: 500,
      q: 'ecl',
    });
    expect(codesInUseParams(catalogId, 'priceTypes', '   ', 500, 'c1')).toEqual({
      catalogId,
      list: 'priceTypes',
      limit: 500,
      cursor: 'c1',
    });
    // The API refuses a q longer than 100 characters: the box's text is cut instead.
    expect(codesInUseParams(catalogId, 'priceTypes', 'x'.repeat(150), 500, undefined).q).toHaveLength(100);
  });

  it('offers the codes found, and while a search is typed the ticked ones it did not find, first and once', () => {
    expect(searchedCodes(['ECLASS', 'ETIM'], '', ['UNSPSC'])).toEqual(['ECLASS', 'ETIM']);
    expect(searchedCodes(['ECLASS'], 'ecl', ['UNSPSC', 'ECLASS', 'UNSPSC'])).toEqual(['UNSPSC', 'ECLASS']);
    expect(searchedCodes([], 'nothing', [])).toEqual([]);
    // With the local filter over it, a stale answer (the server not asked yet) narrows at once.
    const shown = filterCodes(searchedCodes(['ECLASS', 'ETIM'], 'eti', ['UNSPSC']), 'eti', new Set(['UNSPSC']));
    expect(shown).toEqual(['UNSPSC', 'ETIM']);
  });
});
