import type { ConnectionShop, ShopDefaults, ShopInput, ShopKind, TargetMapping } from '../api/models';

/**
 * The connection form's shop section (docs/web.md "Shops") as editable strings and flags, and
 * the conversions between it and the API's shop (`TargetMapping`, docs/shops.md "The PIM side").
 * The write sends only what differs from the kind's defaults (GetShopDefaults), because the
 * server stores the mapping as given and fills the rest from the defaults: a setting the user
 * left alone follows a later change of the defaults.
 */
export interface LanguageRow {
  /** PIM language, ISO 639-2 (`deu`). */
  language: string;
  /** The shop's locale (`de-DE`); empty: the language is not sent. */
  locale: string;
}

export type ValuesChoice = 'all' | 'none' | 'some';

export interface ShopDraft {
  kind: ShopKind;
  url: string;
  /** Index of the credential set in use (GetShopDefaults `credentials`). */
  credentialSet: number;
  credentials: Record<string, string>;
  languages: LanguageRow[];
  defaultLanguage: string;
  /** Empty: the product's own price. */
  priceType: string;
  currency: string;
  pricesIncludeTax: boolean;
  classification: boolean;
  values: ValuesChoice;
  /** Attribute codes when `values` is `some`, separated by commas or lines. */
  valueCodes: string;
  /** Feature-block systems, one per line. */
  featureBlocks: string;
  onDeactivate: TargetMapping['onDeactivate'];
  /** Media purposes sent as images; none ticked: every image. */
  imagePurposes: string[];
  references: boolean;
}

/** Rows for the catalog's languages first (in its order), then any other language the mapping names. */
export function languageRows(mapping: Record<string, string>, catalogLanguages: readonly string[]): LanguageRow[] {
  const codes = [...catalogLanguages, ...Object.keys(mapping).filter((l) => !catalogLanguages.includes(l))];
  return codes.map((language) => ({ language, locale: mapping[language] ?? '' }));
}

/** The codes of a free-text list (commas or lines), as the write sends them. */
export const list = (text: string) =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * A pick list's tick on a free-text list of codes (feature systems one per line, attribute
 * codes by commas): ticked adds the code at the end, unticked removes it; the codes typed by
 * hand stay as they are, so a code not offered can still be sent.
 */
export function toggleCode(text: string, code: string, on: boolean, separator: '\n' | ', '): string {
  const codes = list(text).filter((c) => c !== code);
  return (on ? [...codes, code] : codes).join(separator);
}

/** The form for a mapping (a connection's, or a kind's defaults), with rows for the catalog's languages. */
function mappingDraft(mapping: TargetMapping, catalogLanguages: readonly string[]) {
  const values = mapping.features.values;
  return {
    languages: languageRows(mapping.languages, catalogLanguages),
    defaultLanguage: mapping.defaultLanguage,
    priceType: mapping.priceType ?? '',
    currency: mapping.currency,
    pricesIncludeTax: mapping.pricesIncludeTax,
    classification: mapping.features.classification,
    values: (values === true ? 'all' : values === false ? 'none' : 'some') as ValuesChoice,
    valueCodes: Array.isArray(values) ? values.join(', ') : '',
    featureBlocks: mapping.features.featureBlocks.join('\n'),
    onDeactivate: mapping.onDeactivate,
    imagePurposes: [...mapping.imagePurposes],
    references: mapping.references,
  };
}

/**
 * A new shop of a kind: its defaults, the catalog's own language as the default language (a
 * kind's default is German; a catalog in another language would otherwise warn at once), no
 * credentials. The URL typed so far is kept.
 */
export function draftForKind(defaults: ShopDefaults, catalog: Catalogish, url = ''): ShopDraft {
  return {
    kind: defaults.kind,
    url,
    credentialSet: 0,
    credentials: {},
    ...mappingDraft({ ...defaults.mapping, defaultLanguage: catalog.language }, catalog.languages),
  };
}

/** The form for a connection's stored shop (credentials are never read back: empty, kept unless typed). */
export function draftOfShop(shop: ConnectionShop, catalog: Catalogish): ShopDraft {
  return {
    kind: shop.kind,
    url: shop.url ?? '',
    credentialSet: 0,
    credentials: {},
    ...mappingDraft(shop.mapping, catalog.languages),
  };
}

/** The draft with a row for each language of the catalog it lacks (the dialog's catalog may change). */
export function withCatalogLanguages(draft: ShopDraft, catalog: Catalogish): ShopDraft {
  const missing = catalog.languages.filter((l) => !draft.languages.some((r) => r.language === l));
  return missing.length
    ? { ...draft, languages: [...draft.languages, ...missing.map((language) => ({ language, locale: '' }))] }
    : draft;
}

/** "Reset to defaults": the kind's mapping again, kind, URL and credentials as they are. */
export function resetMapping(draft: ShopDraft, defaults: ShopDefaults, catalog: Catalogish): ShopDraft {
  return {
    ...draftForKind(defaults, catalog),
    url: draft.url,
    credentialSet: draft.credentialSet,
    credentials: draft.credentials,
  };
}

/** The language and its languages of the connection's catalog. */
export interface Catalogish {
  language: string;
  languages: readonly string[];
}

/** The draft's mapping in full (what the shop would run with). */
export function mappingOf(draft: ShopDraft): TargetMapping {
  const languages: Record<string, string> = {};
  for (const row of draft.languages) if (row.locale.trim()) languages[row.language] = row.locale.trim();
  return {
    languages,
    defaultLanguage: draft.defaultLanguage,
    priceType: draft.priceType.trim() || null,
    currency: draft.currency.trim().toUpperCase(),
    pricesIncludeTax: draft.pricesIncludeTax,
    features: {
      classification: draft.classification,
      values: draft.values === 'all' ? true : draft.values === 'none' ? false : list(draft.valueCodes),
      featureBlocks: list(draft.featureBlocks),
    },
    onDeactivate: draft.onDeactivate,
    imagePurposes: [...draft.imagePurposes],
    references: draft.references,
  };
}

const same = (a: unknown, b: unknown): boolean => {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => same(v, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return same(ka, kb) && ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
};

/** The parts of a mapping that differ from the defaults (what a write stores); `{}` when none do. */
export function mappingChanges(mapping: TargetMapping, defaults: TargetMapping): NonNullable<ShopInput['mapping']> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(mapping) as (keyof TargetMapping)[]) {
    if (key === 'features') continue;
    if (!same(mapping[key], defaults[key])) out[key] = mapping[key];
  }
  const features: Record<string, unknown> = {};
  for (const key of Object.keys(mapping.features) as (keyof TargetMapping['features'])[])
    if (!same(mapping.features[key], defaults.features[key])) features[key] = mapping.features[key];
  if (Object.keys(features).length > 0) out.features = features;
  return out as NonNullable<ShopInput['mapping']>;
}

/** The fields of the chosen credential set; every field empty means "none typed". */
export function credentialFields(draft: ShopDraft, defaults: ShopDefaults) {
  return defaults.credentials[draft.credentialSet] ?? defaults.credentials[0] ?? [];
}

/**
 * The shop as UpdateConnection / AddConnection take it. Credentials go only when typed (the
 * chosen set's fields, nothing of another set); left empty they are left out, which keeps the
 * stored ones (or lets the API say which are needed).
 */
export function shopInputOf(draft: ShopDraft, defaults: ShopDefaults): ShopInput {
  const fields = credentialFields(draft, defaults);
  const typed = fields.filter((f) => (draft.credentials[f.name] ?? '') !== '');
  const credentials =
    typed.length > 0 ? Object.fromEntries(fields.map((f) => [f.name, draft.credentials[f.name] ?? ''])) : undefined;
  const url = draft.url.trim();
  return {
    kind: draft.kind,
    ...(url ? { url } : {}),
    ...(credentials ? { credentials } : {}),
    mapping: mappingChanges(mappingOf(draft), defaults.mapping),
  };
}

export type ShopProblem = 'urlRequired' | 'urlInvalid' | 'currency' | 'credentialsRequired';

/**
 * What the API would refuse, checked before sending so the problem shows at its input. The
 * credentials are needed for a new shop or another kind (`keeps`: the stored ones still apply).
 */
export function shopProblems(
  draft: ShopDraft,
  defaults: ShopDefaults,
  keeps: boolean,
): Partial<Record<'url' | 'currency' | 'credentials', ShopProblem>> {
  const problems: Partial<Record<'url' | 'currency' | 'credentials', ShopProblem>> = {};
  const url = draft.url.trim();
  if (defaults.urlRequired && !url) problems.url = 'urlRequired';
  else if (url && !/^https?:\/\/[^\s/]+/i.test(url)) problems.url = 'urlInvalid';
  if (!/^[A-Z]{3}$/.test(draft.currency.trim().toUpperCase())) problems.currency = 'currency';
  const fields = credentialFields(draft, defaults);
  const filled = fields.filter((f) => (draft.credentials[f.name] ?? '') !== '').length;
  if (fields.length > 0 && (filled > 0 ? filled < fields.length : !keeps)) problems.credentials = 'credentialsRequired';
  return problems;
}

/** The connection's own fields as edited in the dialog: what a test of unsaved settings goes through. */
export interface ConnectorDraft {
  catalogId: string;
  connectorUrl: string;
  keyId: string;
  /** Empty: the saved secret (a saved connection only). */
  secret: string;
}

export type ConnectorMissing = 'catalogId' | 'connectorUrl' | 'keyId' | 'secret';

/**
 * The connector part of TestConnection with `shop` (docs/web.md "Shops"): the catalog, URL and
 * key id as edited, and the secret when typed, so the test goes where a save would point the
 * connection. A connection not saved yet has no saved values: every field is needed, and what
 * is missing is named instead of sent. The secret left empty on a saved connection is the saved one.
 */
export function connectorTestFields(
  draft: ConnectorDraft,
  saved: boolean,
): { fields: Partial<ConnectorDraft> } | { missing: ConnectorMissing[] } {
  const fields = {
    catalogId: draft.catalogId,
    connectorUrl: draft.connectorUrl.trim(),
    keyId: draft.keyId.trim(),
    secret: draft.secret,
  };
  const missing = (Object.keys(fields) as ConnectorMissing[]).filter(
    (name) => fields[name] === '' && !(saved && name === 'secret'),
  );
  if (missing.length > 0) return { missing };
  const { secret, ...rest } = fields;
  return { fields: secret ? fields : rest };
}

/** From this many codes on, a pick list offers a filter: a long row of tick boxes is no choice. */
export const FILTER_CODES_FROM = 12;

/** How long a pick list's filter text rests before the server is asked (GetCodesInUse `q`). */
export const CODE_SEARCH_WAIT_MS = 300;

/** GetCodesInUse's longest `q`. */
const CODE_SEARCH_MAX = 100;

/**
 * The query of one GetCodesInUse page for a pick list's filter text: `q` is the text trimmed
 * (cut to the API's 100 characters), left out when blank, so an empty filter is the whole list
 * and every search is its own cached list.
 */
export function codesInUseParams(
  catalogId: string,
  list: 'priceTypes' | 'featureSystems',
  search: string,
  limit: number,
  cursor: string | undefined,
) {
  const q = search.trim().slice(0, CODE_SEARCH_MAX);
  return { catalogId, list, limit, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) };
}

/**
 * The query of one GetAttributes page for the attribute-code pick list's filter text: as
 * `codesInUseParams` (`q` the text trimmed and cut, left out when blank), so the server searches
 * every attribute (code or name), not only the ones loaded.
 */
export function attributesParams(search: string, limit: number, cursor: string | undefined) {
  const q = search.trim().slice(0, CODE_SEARCH_MAX);
  return { limit, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) };
}

/**
 * What a server-searched pick list offers: the codes the search found, and, while a search is
 * typed, first the ticked codes it did not find (the server knows nothing of the ticks, and a
 * filter never hides one).
 */
export function searchedCodes(found: readonly string[], search: string, chosen: readonly string[]): string[] {
  if (!search.trim()) return [...found];
  const have = new Set(found);
  return [...new Set(chosen.filter((code) => !have.has(code))), ...found];
}

/**
 * The codes a pick list shows for its filter text: those whose code or label contains it, case
 * ignored, in their order; the codes already chosen always stay, so a filter never hides a tick.
 */
export function filterCodes(
  codes: readonly string[],
  filter: string,
  chosen: ReadonlySet<string>,
  labelOf: (code: string) => string = (code) => code,
): string[] {
  const needle = filter.trim().toLowerCase();
  if (!needle) return [...codes];
  return codes.filter(
    (code) => chosen.has(code) || code.toLowerCase().includes(needle) || labelOf(code).toLowerCase().includes(needle),
  );
}
