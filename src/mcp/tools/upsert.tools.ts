import { upsertProducts } from '../../catalog/upsert/upsert-api';
import { UpsertProductsDto, UpsertProductsOut } from '../../catalog/upsert/upsert.schemas';
import { defineTool, WRITE } from '../tool-definition';

/** Tools that write products in bulk. */
export const upsertTools = [
  defineTool({
    name: 'upsert_products',
    title: 'Create or update products in bulk',
    description:
      'Creates or updates up to 1000 master products of one catalog by SKU in one transaction, each with optional variants ' +
      '(matched by SKU under the master), attribute values by code, a classification (classes and feature values, e.g. ETIM ' +
      'EC000042 with EF000008 = "230"), category ids and media file references. Fields left out keep their values; a list given ' +
      '(values, classification, media, categoryIds) replaces the stored one; for a member limited to category subtrees, ' +
      "categoryIds replace the placements in those subtrees and keep the product's other placements. " +
      'Answers each item in order: created, updated, ' +
      'unchanged, or error with the field. Items with a classification need the account switch "AI may edit classifications".',
    input: UpsertProductsDto,
    output: UpsertProductsOut,
    annotations: WRITE,
    scopePerRecord: true,
    run: ({ db, caller, files }, input) => upsertProducts({ db, files: files ?? null }, caller, input),
  }),
];
