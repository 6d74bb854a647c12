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

/**
 * The product's translations: `translationsRegister` per locale with the digests of the
 * default-language content just written (`translatableResource`), and `translationsRemove`
 * for the keys a locale no longer has. Nothing is sent when the texts and translations are
 * as last written; on a new product nothing is removed.
 */
export async function syncTranslations(
  gql: ShopifyGraphql,
  productId: string,
  product: Product,
  previous: Product | null,
  created: boolean,
  mapping: TargetMapping,
) {
  const now = wanted(product, mapping);
  const before = previous ? wanted(previous, mapping) : null;
  const textsSame = previous !== null && previous.name === product.name && previous.description === product.description;
  if (before !== null && textsSame && same(now, before)) return;

  const registering = [...now].filter(([, texts]) => texts.size > 0);
  if (registering.length > 0) {
    const content = await gql.request<{
      translatableResource: { translatableContent: { key: string; digest: string | null }[] } | null;
    }>(TRANSLATABLE_CONTENT, { resourceId: productId });
    const digests = new Map(
      (content.data?.translatableResource?.translatableContent ?? []).map((entry) => [entry.key, entry.digest]),
    );
    for (const [locale, texts] of registering) {
      const translations = [...texts].flatMap(([key, value]) => {
        const digest = digests.get(key);
        return digest ? [{ locale, key, value, translatableContentDigest: digest }] : [];
      });
      if (translations.length === 0) continue;
      const result = await gql.request<{ translationsRegister: UserErrors | null }>(TRANSLATIONS_REGISTER, {
        resourceId: productId,
        translations,
      });
      failOn(`product.translations.${locale}`, result, result.data?.translationsRegister);
    }
  }
  if (created) return;
  for (const [locale, texts] of now) {
    const had = before?.get(locale);
    const gone = KEYS.map(([, key]) => key).filter((key) => !texts.has(key) && (had === undefined || had.has(key)));
    if (gone.length === 0) continue;
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
