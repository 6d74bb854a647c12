import { TargetError } from '../target-adapter';
import { OutcomeUnknown, type TargetHttp } from '../target-http';
import { BULK_OPERATION, BULK_OPERATION_CANCEL, BULK_RUN_MUTATION, STAGED_UPLOADS_CREATE } from './shopify-documents';
import { isFatal } from './shopify-failure';
import { type GraphqlError, type GraphqlResult, graphqlErrorText, type ShopifyGraphql } from './shopify-graphql';

/**
 * Shopify's bulk mutations (https://shopify.dev/docs/api/usage/bulk-operations/imports): one
 * mutation run once per line of a JSONL file of variables, staged with `stagedUploadsCreate`,
 * started with `bulkOperationRunMutation`, followed with `bulkOperation(id)` and answered as a
 * JSONL file of one result per line (`__lineNumber`). The lines cost nothing of the cost
 * budget: a round of many updates costs the few requests around them instead of a productSet
 * each (docs/shops.md, "Bulk operations").
 */

/** Fewer lines than this go one request each: a bulk operation's own requests and wait would cost more. */
export const BULK_MIN_LINES = 5;

/**
 * Polls of a running operation (one point each): every second for the first 10, then less
 * often up to every 5 s; given up (and cancelled) after 10 minutes.
 */
const POLL_MS = 1000;
const QUICK_POLLS = 10;
const MAX_POLL_MS = 5000;
const GIVE_UP_MS = 10 * 60 * 1000;

/** One line's result: its data, or the reason it has none (then retryable: the line can be sent again). */
export type BulkLine<T> = { data: T } | { error: string; retryable: boolean };

export interface BulkDeps {
  gql: ShopifyGraphql;
  http: TargetHttp;
  /** The shop's base URL: its own origin may serve the staged upload and the results (a local shop). */
  shopUrl: string;
  /** The SSRF rule (`WriteContext.refusedUrl`) for the upload and result URLs Shopify names. */
  refusedUrl: (url: string) => string | null;
  now: () => number;
}

interface StagedTarget {
  url: string | null;
  resourceUrl: string | null;
  parameters: { name: string; value: string }[];
}

interface BulkOperationState {
  id: string;
  status: 'CREATED' | 'RUNNING' | 'COMPLETED' | 'CANCELING' | 'CANCELED' | 'EXPIRED' | 'FAILED';
  errorCode: string | null;
  url: string | null;
  partialDataUrl: string | null;
}

/** A URL Shopify named for a file: on the shop's own origin, or one the SSRF rule allows. */
function checkedUrl(deps: BulkDeps, url: string | null, what: string): string {
  if (!url) throw new TargetError(`the shop named no URL for the bulk operation's ${what}`, true);
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    throw new TargetError(`the shop named an invalid URL for the bulk operation's ${what}`, false);
  }
  if (origin === new URL(deps.shopUrl).origin) return url;
  const refused = deps.refusedUrl(url);
  if (refused) throw new TargetError(`the bulk operation's ${what} URL is refused: ${refused}`, false);
  return url;
}

/** Stages the JSONL file of the lines' variables and answers the path `bulkOperationRunMutation` takes. */
async function stage(deps: BulkDeps, lines: Record<string, unknown>[]): Promise<string> {
  const body = lines.map((line) => JSON.stringify(line)).join('\n');
  const result = await deps.gql.request<{
    stagedUploadsCreate: { stagedTargets: StagedTarget[]; userErrors: { message: string }[] } | null;
  }>(STAGED_UPLOADS_CREATE, {
    input: [
      {
        resource: 'BULK_MUTATION_VARIABLES',
        filename: 'pim-bulk.jsonl',
        mimeType: 'text/jsonl',
        httpMethod: 'POST',
      },
    ],
  });
  const payload = result.data?.stagedUploadsCreate;
  const target = payload?.stagedTargets[0];
  if (!payload || payload.userErrors.length > 0 || !target) {
    const reason = payload?.userErrors.map((error) => error.message).join('; ') || graphqlErrorText(result.errors);
    throw new TargetError(`the shop refused the bulk upload: ${reason || 'no upload target'}`, true);
  }
  const key = target.parameters.find((parameter) => parameter.name === 'key')?.value;
  if (!key) throw new TargetError('the shop named no key for the bulk upload', true);
  // The staged target's parameters first, the file last (the storage's form upload reads them in that order).
  const form = new FormData();
  for (const parameter of target.parameters) form.append(parameter.name, parameter.value);
  form.append('file', new Blob([body], { type: 'text/jsonl' }), 'pim-bulk.jsonl');
  const response = await deps.http.send({ method: 'POST', url: checkedUrl(deps, target.url, 'upload'), body: form });
  await response.body?.cancel();
  if (!response.ok) throw new TargetError(`the bulk upload was refused (HTTP ${response.status})`, true);
  return key;
}

async function operationState(deps: BulkDeps, id: string): Promise<BulkOperationState> {
  const result = await deps.gql.request<{ bulkOperation: BulkOperationState | null }>(BULK_OPERATION, { id });
  const operation = result.data?.bulkOperation;
  if (!operation) throw new TargetError(`the shop lost the bulk operation: ${graphqlErrorText(result.errors)}`, true);
  return operation;
}

/** The result file's lines by `__lineNumber`; a line that is not JSON is skipped (its record is then retried). */
async function results<T>(deps: BulkDeps, url: string): Promise<Map<number, { data?: T; errors?: GraphqlError[] }>> {
  const response = await deps.http.send({ method: 'GET', url: checkedUrl(deps, url, 'result') });
  if (!response.ok) {
    await response.body?.cancel();
    throw new TargetError(`the bulk operation's results could not be read (HTTP ${response.status})`, true);
  }
  const byLine = new Map<number, { data?: T; errors?: GraphqlError[] }>();
  for (const text of (await response.text()).split('\n')) {
    if (!text.trim()) continue;
    try {
      const line = JSON.parse(text) as { data?: T; errors?: GraphqlError[]; __lineNumber?: number };
      if (typeof line.__lineNumber === 'number') byLine.set(line.__lineNumber, line);
    } catch {
      // Not a result line: its record has no answer and is retried.
    }
  }
  return byLine;
}

/**
 * Runs `mutation` once per entry of `lines` (its variables) as one bulk operation and answers
 * each line's data in the same order. Throws `TargetError` only while the operation cannot
 * have started (the caller then sends the lines one by one); once started, a line without a
 * result (an operation that failed part way, did not end within ten minutes and was
 * cancelled, or whose polls or results the shop did not answer) is a retryable error of that
 * line only: its record is written again by the connector's next try.
 */
export async function runBulkMutation<T>(
  deps: BulkDeps,
  mutation: string,
  lines: Record<string, unknown>[],
): Promise<BulkLine<T>[]> {
  const stagedUploadPath = await stage(deps, lines);
  let started: GraphqlResult<{
    bulkOperationRunMutation: {
      bulkOperation: BulkOperationState | null;
      userErrors: { message: string; code?: string | null }[];
    } | null;
  }>;
  try {
    // Sent once: an operation started twice would write its lines twice (a create's files too).
    started = await deps.gql.request(BULK_RUN_MUTATION, { mutation, stagedUploadPath }, { once: true });
  } catch (error) {
    if (!(error instanceof OutcomeUnknown)) throw error;
    // It may run: the lines are not sent again one by one; their records are retried, and
    // found by SKU if it made them.
    return lines.map(() => ({ error: error.message, retryable: true }));
  }
  const payload = started.data?.bulkOperationRunMutation;
  if (!payload?.bulkOperation || payload.userErrors.length > 0) {
    const reason = payload?.userErrors.map((error) => error.message).join('; ') || graphqlErrorText(started.errors);
    throw new TargetError(`the shop did not start the bulk operation: ${reason}`, true);
  }
  // Started: from here on a failure is the lines', never a reason to send them again one by one.
  let byLine = new Map<number, { data?: T; errors?: GraphqlError[] }>();
  let unfinished = 'the shop gave no result for it';
  try {
    let operation = payload.bulkOperation;
    const startedAt = deps.now();
    let wait = POLL_MS;
    let polls = 0;
    let gaveUp = false;
    while (operation.status === 'CREATED' || operation.status === 'RUNNING' || operation.status === 'CANCELING') {
      if (deps.now() - startedAt > GIVE_UP_MS) {
        // Cancelled, so that it cannot apply these lines after the records were retried with newer data.
        await deps.gql.request(BULK_OPERATION_CANCEL, { id: operation.id }).catch(() => undefined);
        gaveUp = true;
        break;
      }
      await deps.http.sleep(wait);
      if (++polls >= QUICK_POLLS) wait = Math.min(MAX_POLL_MS, wait * 2);
      operation = await operationState(deps, operation.id);
    }
    if (gaveUp) unfinished = 'the bulk operation did not end within 10 minutes and was cancelled';
    else if (operation.status !== 'COMPLETED')
      unfinished = `the bulk operation ended ${operation.status.toLowerCase()}${operation.errorCode ? ` (${operation.errorCode})` : ''}`;
    // A completed operation may name no file (no line gave a result); a failed one its partial results.
    const url = operation.status === 'COMPLETED' ? operation.url : operation.partialDataUrl;
    if (url) byLine = await results<T>(deps, url);
  } catch (error) {
    if (!(error instanceof TargetError) || isFatal(error)) throw error;
    unfinished = error.message;
  }
  return lines.map((_, i): BulkLine<T> => {
    const line = byLine.get(i);
    if (line?.data) return { data: line.data };
    if (line?.errors?.length) return { error: graphqlErrorText(line.errors), retryable: false };
    return { error: unfinished, retryable: true };
  });
}
