import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../env';
import { validate } from '../../http/validate';
import { describeOperation } from '../../openapi/describe-operation';
import { featureBlockOut, featureBlockSchema } from '../../model/feature-block-types';
import { getFeatureBlocks, setFeatureBlocks } from './feature-blocks';

const doc = (summary: string, response?: z.ZodType, conflict?: string) =>
  describeOperation({ tag: 'Catalog', summary, response, security: 'cookie', conflict });

const FeatureBlocksOut = z.object({
  productId: z.string(),
  featureBlocks: z.array(featureBlockOut),
});

export const SetFeatureBlocksDto = z.strictObject({
  departmentId: z.uuid(),
  productId: z.uuid(),
  /** The whole new list, in order; it replaces the stored one. */
  featureBlocks: z.array(featureBlockSchema).max(50),
  /** Must be true to send an empty list (removes every block). */
  clear: z.boolean().optional(),
});

/** `/api/Catalog/*` for feature blocks of other systems (UNSPSC, udf_*, eCl@ss Advanced …). */
export const featureBlockRoutes = new Hono<AppEnv>()
  .get(
    '/GetFeatureBlocks',
    doc(
      'Feature blocks of other systems of a product or variant (UNSPSC, udf_*, eCl@ss Advanced …), in order',
      FeatureBlocksOut,
    ),
    validate('query', z.strictObject({ productId: z.uuid() })),
    async (c) => c.json(await getFeatureBlocks(c.var.db, c.var.caller, c.req.valid('query').productId)),
  )
  .post(
    '/SetFeatureBlocks',
    doc(
      'Replace the feature blocks of other systems of a product or variant (an empty list needs "clear": true)',
      FeatureBlocksOut,
      'The product was changed by another write at the same time (retried; 409 when it keeps changing)',
    ),
    validate('json', SetFeatureBlocksDto),
    async (c) => c.json(await setFeatureBlocks(c.var.db, c.var.caller, c.req.valid('json'))),
  );
