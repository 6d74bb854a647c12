/**
 * The PIM's languages onto the local shops' locales (German, English, French): the mapping's
 * `languages` of `npm run dev -- --shop vendure` and of the real-shop e2e tests.
 */
export const SHOP_LANGUAGES = {
  vendure: { deu: 'de', eng: 'en', fra: 'fr' },
  medusa: { deu: 'de-DE', eng: 'en-GB', fra: 'fr-FR' },
} as const;
