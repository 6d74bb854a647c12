import { z } from 'zod';
import { defaultMapping } from '../adapters/default-mapping';
import { TARGET_KINDS, type TargetConfig, type TargetKind } from '../adapters/target-adapter';

const languageCode = z.string().regex(/^[a-z]{3}$/, 'a PIM language is an ISO 639-2 code such as "deu"');

/** TargetMapping with every field optional: what the PIM leaves out comes from `defaultMapping(kind)`. */
const mappingInputSchema = z
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

/** The body of PUT /target. The reference store needs no URL or credentials. */
export const targetConfigSchema = z
  .object({
    kind: z.enum(TARGET_KINDS as [TargetKind, ...TargetKind[]]),
    url: z
      .url({ protocol: /^https?$/, error: 'url must be an http(s) URL' })
      .max(2000)
      .optional(),
    credentials: z.record(z.string().min(1).max(100), z.string().max(10_000)).default({}),
    mapping: mappingInputSchema.default({}),
  })
  .strict()
  .refine((c) => c.kind === 'reference' || c.url !== undefined, { path: ['url'], message: 'url is required' });

/** The validated config with the kind's defaults filled in; the URL without a trailing slash. */
export function toTargetConfig(input: z.infer<typeof targetConfigSchema>): TargetConfig {
  const defaults = defaultMapping(input.kind);
  const { features, ...rest } = input.mapping;
  return {
    kind: input.kind,
    url: (input.url ?? '').replace(/\/+$/, ''),
    credentials: input.credentials,
    mapping: { ...defaults, ...rest, features: { ...defaults.features, ...features } },
  };
}
