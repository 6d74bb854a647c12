import { z } from 'zod';
import { ProductCompletenessOut, getProductCompleteness } from '../../completeness/completeness-read';
import { IncompleteOut, IncompleteQuery, listIncompleteProducts } from '../../completeness/incomplete-products';
import { ChannelsOut, listChannels } from '../../completeness/channels';
import { defineTool, READ_ONLY } from '../tool-definition';

/** Tools over channels and completeness (docs/completeness.md): read only. */
export const completenessTools = [
  defineTool({
    name: 'list_channels',
    title: 'List channels and their requirements',
    description:
      "The company's channels (a shop, a data pool, a print catalog), the languages each publishes and what each " +
      'requires of a product: fields, attributes, media, prices, classification, features and quality rules.',
    input: z.strictObject({}),
    output: ChannelsOut,
    annotations: READ_ONLY,
    run: ({ db, caller }) => listChannels(db, caller),
  }),
  defineTool({
    name: 'list_incomplete_products',
    title: 'What is missing for a channel',
    description:
      'Answers "what is missing for the shop?" in one call: the channel (by name or id) with a summary per language ' +
      '(products, complete, mean score, how many miss each requirement) and its incomplete products, worst first, each ' +
      'with its score and the list of what is missing and the field to fix it (`name@eng`, `values.colour`, `gtin`, or ' +
      'the tab `media`, `prices`, `classification`). Filter by `language` or by one `requirement`; page with `cursor`. ' +
      'With `level: "variants"` it lists the incomplete variants instead, each with its master (`masterId`, `masterSku`).',
    input: IncompleteQuery.extend({
      channel: IncompleteQuery.shape.channel.describe('The channel name (e.g. Shop) or id; see list_channels.'),
      limit: z.number().int().min(1).max(200).optional().describe('Products per page (default 50).'),
    }),
    output: IncompleteOut,
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => listIncompleteProducts(db, caller, { ...input, limit: input.limit ?? 50 }),
  }),
  defineTool({
    name: 'get_product_completeness',
    title: "A product's completeness per channel",
    description:
      "One product's score per channel and language with what is missing and where to fix it; it changes with every write.",
    input: z.strictObject({ productId: z.uuid().describe('A master product id (see search_products).') }),
    output: ProductCompletenessOut,
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => getProductCompleteness(db, caller, input.productId),
  }),
];
