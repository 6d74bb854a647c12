/**
 * Content languages (docs/languages.md): stored and exchanged as ISO 639-2 three-letter codes,
 * the way BMEcat writes them (`deu`, `eng`); ETIM xChange and the browser speak BCP 47 (`de-DE`).
 * This table is the one home of both and of the mapping between them. It imports nothing, so
 * the web app bundles it as it is.
 */

export interface Language {
  /** ISO 639-2/T code, the stored form. */
  code: string;
  /** The BCP 47 tag written where one is needed (ETIM xChange, the browser). */
  tag: string;
  /** English name, for lists and messages. */
  name: string;
  /** The language's own name, for the language switch. */
  nativeName: string;
}

const row = (code: string, tag: string, name: string, nativeName: string): Language => ({
  code,
  tag,
  name,
  nativeName,
});

/** The languages a company can enable: those of Europe's markets and the world's large ones. */
export const LANGUAGES: readonly Language[] = [
  row('deu', 'de-DE', 'German', 'Deutsch'),
  row('eng', 'en-GB', 'English', 'English'),
  row('fra', 'fr-FR', 'French', 'Français'),
  row('nld', 'nl-NL', 'Dutch', 'Nederlands'),
  row('ita', 'it-IT', 'Italian', 'Italiano'),
  row('spa', 'es-ES', 'Spanish', 'Español'),
  row('por', 'pt-PT', 'Portuguese', 'Português'),
  row('pol', 'pl-PL', 'Polish', 'Polski'),
  row('ces', 'cs-CZ', 'Czech', 'Čeština'),
  row('slk', 'sk-SK', 'Slovak', 'Slovenčina'),
  row('hun', 'hu-HU', 'Hungarian', 'Magyar'),
  row('ron', 'ro-RO', 'Romanian', 'Română'),
  row('bul', 'bg-BG', 'Bulgarian', 'Български'),
  row('hrv', 'hr-HR', 'Croatian', 'Hrvatski'),
  row('slv', 'sl-SI', 'Slovenian', 'Slovenščina'),
  row('srp', 'sr-RS', 'Serbian', 'Српски'),
  row('bos', 'bs-BA', 'Bosnian', 'Bosanski'),
  row('mkd', 'mk-MK', 'Macedonian', 'Македонски'),
  row('sqi', 'sq-AL', 'Albanian', 'Shqip'),
  row('ell', 'el-GR', 'Greek', 'Ελληνικά'),
  row('tur', 'tr-TR', 'Turkish', 'Türkçe'),
  row('dan', 'da-DK', 'Danish', 'Dansk'),
  row('swe', 'sv-SE', 'Swedish', 'Svenska'),
  row('nor', 'nb-NO', 'Norwegian', 'Norsk'),
  row('fin', 'fi-FI', 'Finnish', 'Suomi'),
  row('isl', 'is-IS', 'Icelandic', 'Íslenska'),
  row('est', 'et-EE', 'Estonian', 'Eesti'),
  row('lav', 'lv-LV', 'Latvian', 'Latviešu'),
  row('lit', 'lt-LT', 'Lithuanian', 'Lietuvių'),
  row('ltz', 'lb-LU', 'Luxembourgish', 'Lëtzebuergesch'),
  row('gle', 'ga-IE', 'Irish', 'Gaeilge'),
  row('mlt', 'mt-MT', 'Maltese', 'Malti'),
  row('cat', 'ca-ES', 'Catalan', 'Català'),
  row('eus', 'eu-ES', 'Basque', 'Euskara'),
  row('glg', 'gl-ES', 'Galician', 'Galego'),
  row('rus', 'ru-RU', 'Russian', 'Русский'),
  row('ukr', 'uk-UA', 'Ukrainian', 'Українська'),
  row('ara', 'ar-SA', 'Arabic', 'العربية'),
  row('heb', 'he-IL', 'Hebrew', 'עברית'),
  row('hin', 'hi-IN', 'Hindi', 'हिन्दी'),
  row('zho', 'zh-CN', 'Chinese', '中文'),
  row('jpn', 'ja-JP', 'Japanese', '日本語'),
  row('kor', 'ko-KR', 'Korean', '한국어'),
  row('ind', 'id-ID', 'Indonesian', 'Bahasa Indonesia'),
  row('msa', 'ms-MY', 'Malay', 'Bahasa Melayu'),
  row('tha', 'th-TH', 'Thai', 'ไทย'),
  row('vie', 'vi-VN', 'Vietnamese', 'Tiếng Việt'),
];

const BY_CODE = new Map(LANGUAGES.map((l) => [l.code, l]));
/** BCP 47 primary subtag (two letters; `nb`/`nn`/`no` for Norwegian) to the stored code. */
const BY_SUBTAG = new Map<string, string>([
  ...LANGUAGES.map((l) => [l.tag.slice(0, 2), l.code] as [string, string]),
  ['no', 'nor'],
  ['nn', 'nor'],
]);
/** ISO 639-2/B (bibliographic) codes older files write, e.g. BMEcat 1.2 `ger`, `fre`. */
const BIBLIOGRAPHIC: Record<string, string> = {
  ger: 'deu',
  fre: 'fra',
  dut: 'nld',
  cze: 'ces',
  slo: 'slk',
  rum: 'ron',
  gre: 'ell',
  chi: 'zho',
  alb: 'sqi',
  mac: 'mkd',
  baq: 'eus',
  ice: 'isl',
  may: 'msa',
  nob: 'nor',
  nno: 'nor',
};

/** The language with this stored code, or undefined. */
export const languageOf = (code: string): Language | undefined => BY_CODE.get(code);

export const isLanguageCode = (code: string): boolean => BY_CODE.has(code);

/**
 * The stored code of a language as any file or client may write it: `deu`, `ger`, `DEU`, `de`,
 * `de-DE`, `de_AT`. Undefined when it names no language of the table.
 */
export function parseLanguage(text: string): string | undefined {
  const lower = text.trim().toLowerCase();
  if (BY_CODE.has(lower)) return lower;
  if (BIBLIOGRAPHIC[lower]) return BIBLIOGRAPHIC[lower];
  const primary = lower.split(/[-_]/)[0]!;
  if (primary.length === 2) return BY_SUBTAG.get(primary);
  if (primary.length === 3 && primary !== lower) return parseLanguage(primary);
  return undefined;
}

/** The BCP 47 tag of a stored code (ETIM xChange, the browser); the code itself when unknown. */
export const languageTag = (code: string): string => BY_CODE.get(code)?.tag ?? code;

/** Separates a field from its language in history paths and CSV columns: `name@eng`. */
export const LANGUAGE_SEPARATOR = '@';

/** `name@eng`, or `name` for the language the element's own columns hold (`language` undefined). */
export const localizedPath = (field: string, language?: string): string =>
  language ? `${field}${LANGUAGE_SEPARATOR}${language}` : field;

/** `name@eng` to `{ field: 'name', language: 'eng' }`; a path without `@` has no language. */
export function splitLocalizedPath(path: string): { field: string; language?: string } {
  const at = path.lastIndexOf(LANGUAGE_SEPARATOR);
  if (at <= 0) return { field: path };
  return { field: path.slice(0, at), language: path.slice(at + 1) };
}
