import { describeOperation, type OperationDoc } from '../openapi/describe-operation';

/** The description of an `/api/ai` catalog operation: bearer security, an optional 409, any further traits. */
export const agentCatalogDoc = (
  summary: string,
  response: OperationDoc['response'],
  conflict?: string,
  more: Partial<OperationDoc> = {},
) => describeOperation({ tag: 'Catalog', summary, response, security: 'bearer', conflict, ...more });
