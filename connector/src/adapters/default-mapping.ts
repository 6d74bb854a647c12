import type { TargetKind, TargetMapping } from './target-adapter';

/** How each engine names a locale: Shopware and Medusa regional codes, the others bare language codes. */
const LOCALES: Record<TargetKind, Record<string, string>> = {
  reference: { deu: 'de', eng: 'en' },
  shopware: { deu: 'de-DE', eng: 'en-GB' },
  shopify: { deu: 'de', eng: 'en' },
  vendure: { deu: 'de', eng: 'en' },
  medusa: { deu: 'de-DE', eng: 'en-US' },
};

/**
 * The mapping a target starts with (docs/shops.md, "Mapping"); PUT /target fills whatever the
 * PIM leaves out from it. Net prices in EUR (the distributors' B2B shops), every feature
 * system the engine has room for, deactivated products disabled rather than deleted (orders
 * keep pointing at them), every image, and references as cross-selling where the engine has it.
 */
export function defaultMapping(kind: TargetKind): TargetMapping {
  return {
    languages: { ...LOCALES[kind] },
    defaultLanguage: 'deu',
    priceType: null,
    currency: 'EUR',
    pricesIncludeTax: false,
    features: { classification: true, values: true, featureBlocks: [] },
    onDeactivate: 'disable',
    imagePurposes: [],
    references: kind === 'shopware' || kind === 'reference',
  };
}
