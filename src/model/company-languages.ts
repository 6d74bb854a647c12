import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { companies } from '../db/schema';
import { badRequest } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { isLanguageCode, languageOf } from '../kernel/languages';

/** The content languages a company has enabled and its default (docs/languages.md). */
export interface CompanyLanguages {
  languages: string[];
  defaultLanguage: string;
}

export async function readCompanyLanguages(db: Database, tenant: Pick<Caller, 'companyId'>): Promise<CompanyLanguages> {
  const [row] = await db
    .select({ languages: companies.languages, defaultLanguage: companies.defaultLanguage })
    .from(companies)
    .where(eq(companies.id, tenant.companyId));
  return row ?? { languages: ['deu'], defaultLanguage: 'deu' };
}

/**
 * The one check of a language a request names: 400 naming the field when the code is no
 * language at all, or one the company has not enabled. No write ever falls back silently.
 */
export function assertEnabled(settings: CompanyLanguages, language: string, field: string): void {
  if (!isLanguageCode(language))
    throw badRequest(`${field}: ${language} is not an ISO 639-2 language code such as deu, eng or fra`);
  if (!settings.languages.includes(language))
    throw badRequest(
      `${field}: ${languageOf(language)!.name} (${language}) is not enabled for your company; an admin enables it under Languages`,
    );
}
