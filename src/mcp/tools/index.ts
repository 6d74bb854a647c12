import type { PimTool } from '../tool-definition';
import { catalogTools } from './catalog.tools';
import { classificationTools } from './classification.tools';
import { exportTools } from './export.tools';
import { historyTools } from './history.tools';
import { changesTools } from './changes.tools';
import { productTools } from './product.tools';
import { releaseTools } from './release.tools';
import { syncTools } from './sync.tools';
import { upsertTools } from './upsert.tools';
import { priceTools } from './price.tools';
import { referenceTools } from './reference.tools';
import { translationTools } from './translation.tools';
import { completenessTools } from './completeness.tools';
import { reviewTools } from './review.tools';

/** Every tool of the MCP server, in the order tools/list shows them. */
export const PIM_TOOLS: readonly PimTool[] = [
  ...catalogTools,
  ...productTools,
  ...upsertTools,
  ...classificationTools,
  ...releaseTools,
  ...exportTools,
  ...historyTools,
  ...changesTools,
  ...syncTools,
  ...priceTools,
  ...referenceTools,
  ...translationTools,
  ...completenessTools,
  ...reviewTools,
];
