import type { TargetMapping } from './protocol/target';

/** What POST /target/test reports of a shop (the connector's TargetProbe). */
export interface ShopProbe {
  name: string;
  languages: string[];
  currencies: string[];
  details: Record<string, string>;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * What a run would lose to the shop's settings, in plain words (docs/shops.md "The PIM side"):
 * texts of a published language without a locale in the mapping, or mapped onto a locale the
 * shop does not offer, texts sent as another language than they are, prices in a currency the
 * shop does not list. Translations lost to locale mismatches are the complaint users make most.
 */
export function shopWarnings(
  catalog: { language: string; languages: string[] },
  mapping: TargetMapping,
  probe: ShopProbe,
): string[] {
  const warnings: string[] = [];
  if (mapping.defaultLanguage !== catalog.language)
    warnings.push(
      `the mapping's default language is "${mapping.defaultLanguage}" but the catalog's is "${catalog.language}": the catalog's own texts would arrive as the wrong language`,
    );
  const offered = probe.languages.join(', ') || 'none';
  for (const language of catalog.languages) {
    const locale = mapping.languages[language];
    if (locale === undefined)
      warnings.push(`the catalog publishes "${language}" but the mapping has no locale for it: its texts are not sent`);
    else if (probe.languages.length > 0 && !probe.languages.some((l) => same(l, locale)))
      warnings.push(
        `"${language}" is mapped to "${locale}", which the shop does not offer (it has ${offered}): its texts are lost`,
      );
  }
  if (probe.currencies.length > 0 && !probe.currencies.some((c) => same(c, mapping.currency)))
    warnings.push(
      `prices are sent in ${mapping.currency}, which the shop does not list (it has ${probe.currencies.join(', ')})`,
    );
  return warnings;
}
