/**
 * Content languages in the browser (docs/languages.md): the languages product data is written in,
 * not the interface language (EN/DE, i18n/). Pure functions behind the administration's language
 * list, the catalog form's languages and the grid's and editor's language switch.
 */

/** The draft of the administration's language list: enabled codes and the default among them. */
export interface LanguageDraft {
  languages: string[];
  defaultLanguage: string;
}

/**
 * Turns a language on or off in the draft. The default cannot be turned off (choose another
 * default first), so the draft always names its default among the enabled languages, as
 * SetLanguages requires.
 */
export function toggleEnabled(draft: LanguageDraft, code: string, on: boolean): LanguageDraft {
  if (on) return draft.languages.includes(code) ? draft : { ...draft, languages: [...draft.languages, code] };
  if (code === draft.defaultLanguage) return draft;
  return { ...draft, languages: draft.languages.filter((l) => l !== code) };
}

/** The draft in SetLanguages' order: default first, then the others as they were enabled. */
export function languagesBody(draft: LanguageDraft): LanguageDraft {
  return {
    defaultLanguage: draft.defaultLanguage,
    languages: [draft.defaultLanguage, ...draft.languages.filter((l) => l !== draft.defaultLanguage)],
  };
}

/** Whether the draft differs from the saved list (order of the non-default languages aside). */
export function draftChanged(saved: LanguageDraft, draft: LanguageDraft): boolean {
  if (saved.defaultLanguage !== draft.defaultLanguage) return true;
  const a = new Set(saved.languages);
  return draft.languages.length !== a.size || draft.languages.some((l) => !a.has(l));
}

/**
 * A catalog's languages as CatalogDto takes them: its default first, then the other chosen ones
 * (each once). Choosing a new default keeps the old one published unless it is unticked.
 */
export function catalogLanguages(defaultLanguage: string, chosen: readonly string[]): string[] {
  return [defaultLanguage, ...new Set(chosen.filter((l) => l !== defaultLanguage))];
}

/**
 * The content language a screen shows: the requested one (address bar) when the catalog
 * publishes it, else the catalog's default. An unknown or unpublished code never reaches the API.
 */
export function contentLanguageOf(
  requested: string | null | undefined,
  catalog: { language: string; languages: readonly string[] },
): string {
  return requested && catalog.languages.includes(requested) ? requested : catalog.language;
}

/** The catalog's languages other than its default: the ones a translation is written in. */
export function translationLanguages(catalog: { language: string; languages: readonly string[] }): string[] {
  return catalog.languages.filter((l) => l !== catalog.language);
}

/**
 * The languages a member looks for gaps in: the catalog's translation languages, narrowed to the
 * member's language scope when it has one (a translator for French sees French only, since it
 * may write no other; docs/teams.md). Hiding the others is a convenience: the server refuses a
 * write outside the scope whatever the screen shows.
 */
export function gapLanguages(
  catalog: { language: string; languages: readonly string[] },
  scope: readonly string[],
): string[] {
  const all = translationLanguages(catalog);
  return scope.length === 0 ? all : all.filter((l) => scope.includes(l));
}

/** A language's name for the user: its own name with the code ("English (eng)"), or the bare code. */
export function languageName(code: string, known: readonly { code: string; nativeName: string }[]): string {
  const l = known.find((k) => k.code === code);
  return l ? `${l.nativeName} (${code})` : code;
}

/**
 * The translated fields of one language that changed, as UpdateProduct's `translations` takes
 * them: the new text, or null where the text was emptied (null removes the translation). Null
 * when nothing changed, so an unchanged form sends nothing.
 */
export function translationPatch(
  original: Readonly<Record<string, string | null | undefined>>,
  draft: Readonly<Record<string, string>>,
): Record<string, string | null> | null {
  const patch: Record<string, string | null> = {};
  for (const [field, text] of Object.entries(draft)) {
    const next = text.trim() === '' ? null : text;
    if (next !== (original[field] ?? null)) patch[field] = next;
  }
  return Object.keys(patch).length ? patch : null;
}
