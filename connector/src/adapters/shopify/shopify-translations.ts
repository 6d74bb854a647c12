import type { Product } from '../../../../src/sync/protocol/wire';
import { textIn, translatedLocalesOf } from '../common/texts';
import type { TargetMapping } from '../target-adapter';
import { TRANSLATABLE_CONTENT, TRANSLATIONS_REGISTER, TRANSLATIONS_REMOVE } from './shopify-documents';
import { failOn, RecordFailure, type UserErrors } from './shopify-failure';
import type { ShopifyGraphql } from './shopify-graphql';

/** The PIM's translated fields and the product's translatable keys in Shopify. */
const KEYS = [
  ['name', 'title'],
  ['description', 'body_html'],
] as const;

/** Per Shopify locale, the key -> text the product should carry (languages the mapping names, other than the default). */
function wanted(product: Product | null, mapping: TargetMapping): Map<string, Map<string, string>> {
  const locales = new Map<string, Map<string, string>>();
  for (const [language, locale] of translatedLocalesOf(mapping)) {
    const texts = new Map<string, string>();
    for (const [field, key] of KEYS) {
      const text = product ? textIn(product, field, language, mapping) : null;
      if (text !== null) texts.set(key, text);
    }
    locales.set(locale, texts);
  }
  return locales;
}

const same = (a: Map<string, Map<string, string>>, b: Map<string, Map<string, string>>) =>
  JSON.stringify([...a].map(([locale, texts]) => [locale, [...texts]])) ===
  JSON.stringify([...b].map(([locale, texts]) => [locale, [...texts]]));

/** What one product's translations need: the texts to register per locale, the keys to remove per locale. */
export interface TranslationWork {
  register: [locale: string, texts: Map<string, string>][];
  remove: [locale: string, keys: string[]][];
}

/** Nothing when the texts and translations are as last written; on a new product nothing is removed. */
export function translationWork(
  product: Product,
  previous: Product | null,
  created: boolean,
  mapping: TargetMapping,
): TranslationWork | null {
  const now = wanted(product, mapping);
  const before = previous ? wanted(previous, mapping) : null;
  const textsSame = previous !== null && previous.name === product.name && previous.description === product.description;
  if (before !== null && textsSame && same(now, before)) return null;
  const register = [...now].filter(([, texts]) => texts.size > 0);
  const remove: TranslationWork['remove'] = [];
  if (!created) {
    for (const [locale, texts] of now) {
      const had = before?.get(locale);
      const gone = KEYS.map(([, key]) => key).filter((key) => !texts.has(key) && (had === undefined || had.has(key)));
      if (gone.length > 0) remove.push([locale, gone]);
    }
  }
  return { register, remove };
}

type Content = { key: string; digest: string | null }[];

/** The translationsRegister variables of all locales at once, against the digests of the content just written. */
export function registerVariables(productId: string, work: TranslationWork, content: Content) {
  const digests = new Map(content.map((entry) => [entry.key, entry.digest]));
  const translations = work.register.flatMap(([locale, texts]) =>
    [...texts].flatMap(([key, value]) => {
      const digest = digests.get(key);
      return digest ? [{ locale, key, value, translatableContentDigest: digest }] : [];
    }),
  );
  return translations.length > 0 ? { resourceId: productId, translations } : null;
}

export type RegisterAnswer = { translationsRegister: UserErrors | null };

/** Throws a register answer's errors as the record's failure, on the locale the first error names. */
export function failOnRegister(
  variables: NonNullable<ReturnType<typeof registerVariables>>,
  result: { errors: { message: string }[] },
  payload: UserErrors | null | undefined,
) {
  const at = Number(payload?.userErrors[0]?.field?.[1] ?? 0);
  const locale = variables.translations[Number.isInteger(at) ? at : 0]?.locale ?? variables.translations[0]!.locale;
  failOn(`product.translations.${locale}`, result, payload);
}

/** `translationsRemove` of the keys a locale no longer has. */
export async function removeTranslations(gql: ShopifyGraphql, productId: string, work: TranslationWork) {
  for (const [locale, gone] of work.remove) {
    const result = await gql.request<{ translationsRemove: UserErrors | null }>(TRANSLATIONS_REMOVE, {
      resourceId: productId,
      translationKeys: gone,
      locales: [locale],
    });
    if (!result.data?.translationsRemove) {
      throw new RecordFailure(`product.translations.${locale}`, 'the shop refused to remove translations');
    }
    failOn(`product.translations.${locale}`, result, result.data.translationsRemove);
  }
}

/**
 * The product's translations: one `translationsRegister` of every locale with the digests of
 * the default-language content just written (`translatableResource`), and `translationsRemove`
 * for the keys a locale no longer has. A round of many products goes through
 * `syncTranslationsInBulk` instead.
 */
export async function syncTranslations(
  gql: ShopifyGraphql,
  productId: string,
  product: Product,
  previous: Product | null,
  created: boolean,
  mapping: TargetMapping,
) {
  const work = translationWork(product, previous, created, mapping);
  if (!work) return;
  if (work.register.length > 0) {
    const content = await gql.request<{
      translatableResource: { translatableContent: Content } | null;
    }>(TRANSLATABLE_CONTENT, { resourceId: productId });
    const variables = registerVariables(productId, work, content.data?.translatableResource?.translatableContent ?? []);
    if (variables) {
      const result = await gql.request<RegisterAnswer>(TRANSLATIONS_REGISTER, variables);
      failOnRegister(variables, result, result.data?.translationsRegister);
    }
  }
  if (!created) await removeTranslations(gql, productId, work);
}
