import { z } from 'zod';
import { ProductOut, SetValueOut, TranslationsInput } from '../../catalog/catalog.schemas';
import { updateProduct } from '../../catalog/products';
import { setValue } from '../../catalog/values';
import { findProduct } from '../../db/scope';
import { defineTool, OVERWRITE } from '../tool-definition';

/**
 * Tools that write texts per language (docs/languages.md, "Agents"): an agent lists the
 * products missing a language (search_products `missingTranslation`) and writes them here.
 * Each change is recorded in the history under the agent's user and client, as every tool's.
 */
export const translationTools = [
  defineTool({
    name: 'set_value',
    title: 'Set one field of a product, variant or category',
    description:
      'Sets one built-in field (name, description, keywords, gtin, price ...), attribute value (by attribute code) or ' +
      'classification feature value (by feature code) of a product, variant or category. `language` (ISO 639-2 code such as eng) ' +
      "writes that language's text of a localizable field (name, description, keywords, a localizable text attribute; a category's name " +
      "and description); without it, or with the catalog's default language, the field itself. An empty value clears it. Recorded in the history.",
    input: z.strictObject({
      elementId: z.uuid().describe('A product, variant or category id.'),
      field: z.string().min(1).max(100).describe('Field name, attribute code or feature code.'),
      value: z.string().max(32000).describe('The new value as text; empty clears it.'),
      language: z.string().max(8).optional().describe('The language of the value (default: the catalog default).'),
      departmentId: z.uuid().optional().describe("The element's department; default: yours."),
    }),
    output: SetValueOut,
    annotations: OVERWRITE,
    permission: 'text.write',
    run: ({ db, caller }, input) =>
      setValue(db, caller, { ...input, departmentId: input.departmentId ?? caller.departmentId }),
  }),
  defineTool({
    name: 'update_product',
    title: "Write a product's texts per language",
    description:
      "Writes a product's or variant's name, description and keywords in several languages at once: " +
      '`translations` is { <language>: { <field>: text or null } } (e.g. { "eng": { "name": "Cable", "description": "..." } }); ' +
      "null removes that language's text; languages and fields left out stay as they are. The catalog's default language writes " +
      'the fields themselves. All or nothing: a language not enabled or a field that is not localizable changes nothing. Recorded in the history.',
    input: z.strictObject({
      productId: z.uuid().describe('A product or variant id (see search_products).'),
      translations: TranslationsInput.describe('Language -> field (name, description, keywords) -> text or null.'),
      departmentId: z.uuid().optional().describe("The product's department; default: yours."),
    }),
    output: ProductOut,
    annotations: OVERWRITE,
    // A translator writes the texts of their languages (docs/teams.md "Language scope").
    textsOnlyWith: ['productId', 'departmentId'],
    run: async ({ db, caller }, input) => {
      const product = await findProduct(db, caller, input.productId);
      return updateProduct(db, caller, {
        departmentId: input.departmentId ?? caller.departmentId,
        catalogId: product.catalogId,
        productId: product.id,
        translations: input.translations,
      });
    },
  }),
];
