import type { RecordOutcome, TargetIds, TargetRecord } from '../target-adapter';
import { TargetError } from '../target-adapter';
import { type BulkDeps, type BulkLine, BULK_MIN_LINES, runBulkMutation } from './shopify-bulk';
import { CollectionJoins } from './shopify-collections';
import { PRODUCT_SET, TRANSLATABLE_RESOURCES, TRANSLATIONS_REGISTER } from './shopify-documents';
import { MarkerWrites, writeMarkers } from './shopify-files';
import { failureOf, isFatal, RecordFailure } from './shopify-failure';
import {
  finishWrite,
  type PlannedWrite,
  planWrite,
  type ProductSetAnswer,
  productSetVariables,
  type RecordDeps,
  setProduct,
} from './shopify-record';
import {
  failOnRegister,
  type RegisterAnswer,
  registerVariables,
  removeTranslations,
  type TranslationWork,
  translationWork,
} from './shopify-translations';

/**
 * Products per translatable-content read: about 2 + 50 × 2 points requested by the published
 * rules, a fifth of one query's 1000, leaving room should Shopify count the content list higher.
 */
const CONTENT_PAGE = 50;

/**
 * The lines as one bulk operation when there are enough of them, else one request each; null
 * when the operation could not be started (the caller then sends them one by one).
 */
async function bulkOrNull<T>(bulk: BulkDeps, mutation: string, lines: Record<string, unknown>[]) {
  if (lines.length < BULK_MIN_LINES) return null;
  try {
    return await runBulkMutation<T>(bulk, mutation, lines);
  } catch (error) {
    if (isFatal(error) || !(error instanceof TargetError)) throw error;
    return null;
  }
}

/** A line's answer as a GraphQL result; a line without one is the record's failure. */
function lineResult<T>(line: BulkLine<T>, field: string) {
  if ('data' in line) return { data: line.data, errors: [] };
  throw new RecordFailure(field, line.error, line.retryable);
}

interface Translating {
  index: number;
  productId: string;
  work: TranslationWork;
}

/**
 * The translations of a round's products: their digests read fifty products at a time,
 * one `translationsRegister` line per product in one bulk operation, the removals one by one
 * (rare: a language's text taken away). Answers the failure per record index.
 */
async function translateAll(deps: RecordDeps, bulk: BulkDeps, items: Translating[]) {
  const failures = new Map<number, RecordOutcome>();
  const registering = items.filter((item) => item.work.register.length > 0);
  const lines: { item: Translating; variables: NonNullable<ReturnType<typeof registerVariables>> }[] = [];
  for (let i = 0; i < registering.length; i += CONTENT_PAGE) {
    const page = registering.slice(i, i + CONTENT_PAGE);
    try {
      const result = await deps.gql.request<{
        translatableResourcesByIds: {
          nodes: { resourceId: string; translatableContent: { key: string; digest: string | null }[] }[];
        } | null;
      }>(TRANSLATABLE_RESOURCES, { resourceIds: page.map((item) => item.productId), first: page.length });
      const content = new Map(
        (result.data?.translatableResourcesByIds?.nodes ?? []).map((node) => [
          node.resourceId,
          node.translatableContent,
        ]),
      );
      for (const item of page) {
        const variables = registerVariables(item.productId, item.work, content.get(item.productId) ?? []);
        if (variables) lines.push({ item, variables });
      }
    } catch (error) {
      for (const item of page) failures.set(item.index, failureOf(item.index, error));
    }
  }
  const answers = await bulkOrNull<RegisterAnswer>(
    bulk,
    TRANSLATIONS_REGISTER,
    lines.map((line) => line.variables),
  );
  for (const [i, { item, variables }] of lines.entries()) {
    try {
      const result = answers
        ? lineResult(answers[i]!, `product.translations.${variables.translations[0]!.locale}`)
        : await deps.gql.request<RegisterAnswer>(TRANSLATIONS_REGISTER, variables);
      failOnRegister(variables, result, result.data?.translationsRegister);
    } catch (error) {
      failures.set(item.index, failureOf(item.index, error));
    }
  }
  for (const item of items) {
    if (failures.has(item.index)) continue;
    try {
      await removeTranslations(deps.gql, item.productId, item.work);
    } catch (error) {
      failures.set(item.index, failureOf(item.index, error));
    }
  }
  return failures;
}

/**
 * Creates and updates as a round of many: every productSet in one bulk operation (a create by
 * the handle made from its SKU, an upsert, so a line that ran before is found, not made twice)
 * and every translation in another (no cost points per line), the follow-ups of each answer
 * (files, stale metafields, collections, price breaks) as for one record, except that new
 * files markers go 25 a call and the collection joins one call per collection. Fewer than
 * `BULK_MIN_LINES`, or an operation the shop does not start, go one request each.
 */
export async function writeInBulk(
  deps: RecordDeps,
  bulk: BulkDeps,
  items: { target: TargetRecord; known: TargetIds | null }[],
): Promise<RecordOutcome[]> {
  const outcomes: RecordOutcome[] = [];
  const planned: PlannedWrite[] = [];
  for (const { target, known } of items) {
    try {
      planned.push(await planWrite(deps, target, known));
    } catch (error) {
      outcomes.push(failureOf(target.index, error));
    }
  }
  const answers = await bulkOrNull<ProductSetAnswer>(bulk, PRODUCT_SET, planned.map(productSetVariables));
  const translating: Translating[] = [];
  const gathered = { joins: new CollectionJoins(), markers: new MarkerWrites() };
  for (const [i, write] of planned.entries()) {
    const { index, record, previous } = write.target;
    try {
      const { result, sentAgain } = answers
        ? { result: lineResult(answers[i]!, 'record'), sentAgain: false }
        : await setProduct(deps, write);
      const outcome = await finishWrite(deps, write, result, sentAgain, gathered);
      outcomes.push(outcome);
      const work = translationWork(record.product, previous, write.known === null, deps.mapping);
      if (work) translating.push({ index, productId: outcome.ids.product, work });
    } catch (error) {
      outcomes.push(failureOf(index, error));
    }
  }
  // Files markers 25 a call, collections joined a collection at a time: a failure fails its record.
  const marked = await writeMarkers(deps.gql, gathered.markers);
  const joined = await deps.collections.join(gathered.joins);
  const failures = await translateAll(deps, bulk, translating);
  return outcomes.map((outcome) => {
    const product = outcome.ok && outcome.ids ? outcome.ids.product : null;
    const failure = product === null ? undefined : (marked.get(product) ?? joined.get(product));
    return failure ? failureOf(outcome.index, failure) : (failures.get(outcome.index) ?? outcome);
  });
}
