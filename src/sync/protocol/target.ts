import { z } from 'zod';

/**
 * A shop target as the PIM configures it and the connector runs it (PUT /target, docs/shops.md):
 * the engine's kind, its URL, credentials and the mapping of PIM fields, languages, prices and
 * feature systems onto it. Shared by the PIM (connections, the web app's defaults) and the
 * connector (validation, adapters); imports nothing but zod.
 */
export const TARGET_KINDS = ['reference', 'vendure', 'medusa', 'shopware', 'shopify'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/**
 * Which PIM field, feature system, language and price type goes where. Every kind has
 * defaults (`defaultMapping(kind)`); the PIM connection stores the user's choices.
 */
export interface TargetMapping {
  /** PIM language (ISO 639-2, `deu`) -> the target's locale (`de`, `de-DE`); languages not named are not sent. */
  languages: Record<string, string>;
  /** The PIM catalog's default language (the record's top-level texts are in it). */
  defaultLanguage: string;
  /** The price list's type that is the shop's price (tiers by `lowerBound`); the record's `price` when absent. */
  priceType: string | null;
  /** The currency of that price (prices in other currencies go where the target has price lists / channels for them). */
  currency: string;
  /** The shop shows prices with tax included; PIM prices are net and are converted with the record's tax rate. */
  pricesIncludeTax: boolean;
  /** Which features become properties / facets / metafields. */
  features: {
    /** ETIM / ECLASS / proficl@ss classification features. */
    classification: boolean;
    /** PIM attribute values (`values`): true for all, or the attribute codes to send. */
    values: boolean | string[];
    /** Feature-block systems to send (`udf_NMNG`, `ECLASS-14.0`); empty for none. */
    featureBlocks: string[];
  };
  /** What a deactivated product becomes in the shop. */
  onDeactivate: 'delete' | 'disable';
  /** Media purposes sent as product images (empty: every image). */
  imagePurposes: string[];
  /** Send product references as cross-selling / related products where the target has them. */
  references: boolean;
}

/** What the PIM stores for a shop and sends the connector (PUT /target): the kind, where, how to sign in, the mapping. */
export interface TargetConfig {
  kind: TargetKind;
  /** The target's base URL (Shopware: `https://shop.example`, Shopify: `https://x.myshopify.com`, Vendure: `.../admin-api`, Medusa: `https://api.example`). */
  url: string;
  /** Kind-specific: Shopware `clientId` / `clientSecret`, Shopify `accessToken`, Vendure `username` / `password` (or `token`), Medusa `apiKey` (or `email` / `password`). */
  credentials: Record<string, string>;
  mapping: TargetMapping;
}

/**
 * The credentials each kind signs in with: one of the sets, every field of it (the web app's
 * form; the PIM refuses a shop whose credentials fill none). The first set is the usual one;
 * `secret` fields are shown as password inputs. The reference store needs none.
 */
export const TARGET_CREDENTIALS: Record<TargetKind, { name: string; secret: boolean }[][]> = {
  reference: [[]],
  shopware: [
    [
      { name: 'clientId', secret: false },
      { name: 'clientSecret', secret: true },
    ],
  ],
  shopify: [[{ name: 'accessToken', secret: true }]],
  vendure: [
    [
      { name: 'username', secret: false },
      { name: 'password', secret: true },
    ],
    [{ name: 'token', secret: true }],
  ],
  medusa: [
    [{ name: 'apiKey', secret: true }],
    [
      { name: 'email', secret: false },
      { name: 'password', secret: true },
    ],
  ],
};

/** True when the credentials fill every field of one of the kind's sets (TARGET_CREDENTIALS). */
export function credentialsComplete(kind: TargetKind, credentials: Record<string, string>): boolean {
  return TARGET_CREDENTIALS[kind].some((set) => set.every((field) => (credentials[field.name] ?? '') !== ''));
}

/** How each engine names a locale: Shopware and Medusa regional codes, the others bare language codes. */
const LOCALES: Record<TargetKind, Record<string, string>> = {
  reference: { deu: 'de', eng: 'en', fra: 'fr' },
  shopware: { deu: 'de-DE', eng: 'en-GB', fra: 'fr-FR' },
  shopify: { deu: 'de', eng: 'en', fra: 'fr' },
  vendure: { deu: 'de', eng: 'en', fra: 'fr' },
  medusa: { deu: 'de-DE', eng: 'en-GB', fra: 'fr-FR' },
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
    references: kind === 'shopware' || kind === 'shopify' || kind === 'reference',
  };
}

const languageCode = z.string().regex(/^[a-z]{3}$/, 'a PIM language is an ISO 639-2 code such as "deu"');

/** TargetMapping with every field optional: what the PIM leaves out comes from `defaultMapping(kind)`. */
export const mappingInputSchema = z
  .object({
    languages: z.record(languageCode, z.string().min(1).max(35)),
    defaultLanguage: languageCode,
    priceType: z.string().min(1).max(30).nullable(),
    currency: z.string().regex(/^[A-Z]{3}$/, 'currency is an ISO 4217 code such as "EUR"'),
    pricesIncludeTax: z.boolean(),
    features: z
      .object({
        classification: z.boolean(),
        values: z.union([z.boolean(), z.array(z.string().min(1).max(100)).max(1000)]),
        featureBlocks: z.array(z.string().min(1).max(250)).max(100),
      })
      .partial()
      .strict(),
    onDeactivate: z.enum(['delete', 'disable']),
    imagePurposes: z.array(z.string().min(1).max(50)).max(50),
    references: z.boolean(),
  })
  .partial()
  .strict();

/** A target's base URL: http(s), as PUT /target takes it. */
export const targetUrlSchema = z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }).max(2000);
/** Credential fields by name (TARGET_CREDENTIALS), as PUT /target takes them. */
export const targetCredentialsSchema = z.record(z.string().min(1).max(100), z.string().max(10_000));

/** A mapping as the PIM stores it: any part of TargetMapping. */
export type TargetMappingInput = z.infer<typeof mappingInputSchema>;

/** The body of PUT /target. The reference store needs no URL or credentials. */
export const targetConfigSchema = z
  .object({
    kind: z.enum(TARGET_KINDS),
    url: targetUrlSchema.optional(),
    credentials: targetCredentialsSchema.default({}),
    mapping: mappingInputSchema.default({}),
  })
  .strict()
  .refine((c) => c.kind === 'reference' || c.url !== undefined, { path: ['url'], message: 'url is required' });

/** The validated config with the kind's defaults filled in; the URL without a trailing slash. */
export function toTargetConfig(input: z.infer<typeof targetConfigSchema>): TargetConfig {
  return {
    kind: input.kind,
    url: (input.url ?? '').replace(/\/+$/, ''),
    credentials: input.credentials,
    mapping: fillMapping(input.kind, input.mapping),
  };
}

/** A partial mapping (what the PIM stores) with the kind's defaults filled in. */
export function fillMapping(kind: TargetKind, mapping: TargetMappingInput): TargetMapping {
  const defaults = defaultMapping(kind);
  const { features, ...rest } = mapping;
  return { ...defaults, ...rest, features: { ...defaults.features, ...features } };
}
