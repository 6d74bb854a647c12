import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { catalogs, companies } from '../../db/schema';
import { badRequest, conflict } from '../../kernel/app-error';
import type { Caller } from '../../kernel/caller';
import { isLanguageCode, LANGUAGES, languageOf } from '../../kernel/languages';
import { readCompanyLanguages } from '../../model/company-languages';

/** A language as the API shows it: its stored code, BCP 47 tag and names. */
export const LanguageOut = z.object({
  code: z.string(),
  tag: z.string(),
  name: z.string(),
  nativeName: z.string(),
});

export const LanguagesOut = z.object({
  defaultLanguage: z.string(),
  /** The company's enabled languages, default first. */
  languages: z.array(LanguageOut),
  /** Every language a company can enable. */
  available: z.array(LanguageOut),
});

export const SetLanguagesDto = z.strictObject({
  languages: z.array(z.string()).min(1, 'languages must name at least one language').max(40),
  defaultLanguage: z.string(),
});

const describe = (codes: readonly string[]) => codes.map((c) => languageOf(c)!);

export async function getLanguages(db: Database, caller: Pick<Caller, 'companyId'>) {
  const settings = await readCompanyLanguages(db, caller);
  const ordered = [settings.defaultLanguage, ...settings.languages.filter((l) => l !== settings.defaultLanguage)];
  return {
    defaultLanguage: settings.defaultLanguage,
    languages: describe(ordered.filter(isLanguageCode)),
    available: [...LANGUAGES],
  };
}

/**
 * Enables the company's content languages (admin only). A language some catalog publishes
 * cannot be disabled (409 naming the catalog): remove it from the catalog first. Disabling a
 * language never deletes its translations; enabling it again shows them.
 */
export async function setLanguages(
  db: Database,
  caller: Pick<Caller, 'companyId'>,
  input: z.infer<typeof SetLanguagesDto>,
) {
  input.languages.forEach((code, i) => {
    if (!isLanguageCode(code))
      throw badRequest(`languages[${i}]: ${code} is not an ISO 639-2 language code such as deu`);
  });
  const languages = [...new Set(input.languages)];
  if (!languages.includes(input.defaultLanguage)) throw badRequest('defaultLanguage must be one of languages');
  // A company has a handful of catalogs: reading their language lists is cheaper than a json_each join.
  const published = await db
    .select({ name: catalogs.name, languages: catalogs.languages })
    .from(catalogs)
    .where(eq(catalogs.companyId, caller.companyId));
  for (const catalog of published) {
    const lang = catalog.languages.find((l) => !languages.includes(l));
    if (lang)
      throw conflict(
        `catalog ${catalog.name} publishes ${languageOf(lang)?.name ?? lang} (${lang}): remove it from the catalog's languages first`,
      );
  }
  await db
    .update(companies)
    .set({ languages, defaultLanguage: input.defaultLanguage })
    .where(eq(companies.id, caller.companyId));
  return getLanguages(db, caller);
}
