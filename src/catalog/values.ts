import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { runBatch, type BatchStatement as Statement, type Database } from '../db/client';
import { withCompletenessEventsAtEnd } from '../db/completeness-flush';
import { forbidden, notFound } from '../kernel/app-error';
import { assertPermitted, isPermitted, NOT_PERMITTED } from '../kernel/permissions';
import { rethrowSkuClash } from '../model/sku';
import { categoryPathChanged, staleMastersIn } from '../records/category-paths';
import { refreshFingerprints } from '../records/sync-record';
import {
  aggregateAfter,
  bumpWithFingerprint,
  bumpWithFingerprintIf,
  fingerprintWith,
  revisionIs,
} from '../records/fingerprint-after';
import { historyStatement, pathVersionStatement } from '../records/history-record';
import type { Json, Snapshot } from '../records/snapshot';
import { guardStatement, isWriteConflict, retryOnConflict } from '../records/write-guard';
import type { SetValueDto } from './catalog.schemas';
import { loadValueContext, type ValueContext } from './value-context';
import { elementTable, type PlannedWrite, planTargetWrite } from './value-plan';
import { changesNothing } from '../records/no-change';
import { featureUnitPathOf } from '../model/class-version';
import type { Caller } from '../kernel/caller';
import { assertEnabled, readCompanyLanguages } from '../model/company-languages';
import { isLocalizable, localizableTarget, planTranslationWrite } from './translations/translation-plan';

/** Mass edit plans each product's write with SetValue's rules (value-plan.ts). */
export { planValueWrite } from './value-plan';

const pathSnapshot = (path: string, value: Json): Snapshot =>
  value === null || value === undefined ? {} : { [path]: value };

/**
 * The version's `before`: the value at the path and, for a feature value kept as text with a
 * unit, that unit's path (featureSnapshot). The write stores a verified value or none, so `after`
 * never has it.
 */
function beforeSnapshot(context: ValueContext, plan: PlannedWrite, current: Json, translating: boolean): Snapshot {
  const before = pathSnapshot(plan.path, current);
  const unitPath = featureUnitPathOf(plan.path);
  const kept = context.currentFeature;
  if (!translating && unitPath && current !== null && kept?.unverified && kept.unit) before[unitPath] = kept.unit;
  return before;
}

/**
 * SetValue: sets one built-in field, attribute value or classification feature value of any
 * catalog element. The string is parsed for the field's type; an empty string clears an
 * optional field. Two round trips (docs/history.md, "Concurrency"): one batch of reads, then one
 * guarded batch with the write, its version (`before` as read in the first batch, which the
 * guard proves still current) and, for a product, the master's new revision and fingerprint.
 * A write that lost a race reads and plans again (write-guard.ts).
 */
export async function setValue(db: Database, tenant: Caller, input: z.infer<typeof SetValueDto>) {
  assertPermitted(tenant, 'text.write', { language: input.language });
  if (input.language !== undefined) assertEnabled(await readCompanyLanguages(db, tenant), input.language, 'language');
  const { element, value, language, renamesCategory, stale } = await retryOnConflict(
    (tryNumber) => setValueOnce(db, tenant, input, tryNumber > GUARDED_TRIES),
    GUARDED_TRIES + 1,
  );
  if (stale) await refreshFingerprints(db, tenant.companyId, [stale]);
  // A category's name is part of the sync record of every product below it (docs/sync.md): their
  // revisions moved in the batch; their fingerprints are refreshed here, conditional on those revisions.
  if (renamesCategory)
    await refreshFingerprints(db, tenant.companyId, await staleMastersIn(db, tenant.companyId, element.id));
  // `language` is echoed when the request named one: the SPEC's answer is unchanged otherwise.
  return { elementId: element.id, field: input.field, value, ...(input.language !== undefined ? { language } : {}) };
}

/**
 * Guarded tries before SetValue writes without a guard: its version's `before` then comes from
 * SQL in the batch (pathVersionStatement), and the fingerprint is stored only if the revision
 * did not move, else refreshed right after. So a single value written by a hundred requests at
 * once never answers 409 and never records a wrong `before` (docs/history.md, "Concurrency"),
 * however slow the machine: that try is made even when the retry budget is spent.
 */
const GUARDED_TRIES = 3;

/**
 * Whether the planned write leaves the element as the read state holds it (docs/history.md, "A
 * write that changes nothing"): the same value at its path (a feature also with its unit and
 * already verified) and, for a product, the same sync record. Then SetValue writes nothing.
 */
function setsNothing(context: ValueContext, plan: PlannedWrite, current: Json, translating: boolean) {
  const { element, aggregate, currentFeature } = context;
  if (!translating && plan.featureUnit !== undefined) {
    if (!currentFeature || currentFeature.unverified || currentFeature.unit !== plan.featureUnit) return false;
  }
  const entry = {
    elementId: element.id,
    kind: element.kind,
    place: element,
    before: beforeSnapshot(context, plan, current, translating),
    after: pathSnapshot(plan.path, plan.stored),
  };
  const record =
    element.masterId && aggregate
      ? { before: aggregate, after: aggregateAfter(aggregate, element.id, plan.applyTo), paths: context.paths }
      : undefined;
  return changesNothing([entry], record);
}

async function setValueOnce(db: Database, tenant: Caller, input: z.infer<typeof SetValueDto>, contended: boolean) {
  const context = await loadValueContext(db, tenant, input);
  const { element, aggregate } = context;
  if (element.departmentId !== input.departmentId) throw notFound('element');
  // A role that writes texts only (a translator, docs/teams.md) writes a field that has a text per language.
  if (!isPermitted(tenant, 'product.write') && !isLocalizable(element, input.field, context.target))
    throw forbidden(NOT_PERMITTED);
  // The catalog's default language writes the column; another one the field's translation (docs/languages.md).
  const language = input.language ?? element.catalogLanguage;
  const translating = language !== element.catalogLanguage;
  const plan = translating
    ? planTranslationWrite(db, element, input.field, context.target, input.value, language)
    : planTargetWrite(db, element, input.field, context.target, input.value, context.current);
  const current = translating
    ? (context.translated[localizableTarget(element, input.field, context.target, language).translationField] ?? null)
    : context.current;
  if (await setsNothing(context, plan, current, translating))
    return { element, value: plan.value, language, renamesCategory: false, stale: null };
  const table = elementTable(element);
  const exists = sql`EXISTS (SELECT 1 FROM ${table} WHERE ${table.id} = ${element.id} AND ${table.companyId} = ${tenant.companyId})`;
  const history = contended
    ? [
        pathVersionStatement(db, tenant, {
          elementId: element.id,
          kind: element.kind,
          place: element,
          path: plan.path,
          currentSql: plan.currentSql,
          after: plan.stored,
          exists,
          keptUnit: translating ? undefined : plan.keptUnit,
        }),
      ]
    : historyStatement(db, tenant, {
        elementId: element.id,
        kind: element.kind,
        place: element,
        before: beforeSnapshot(context, plan, current, translating),
        after: pathSnapshot(plan.path, plan.stored),
      });
  const statements: Statement[] = [];
  let bump: Statement | undefined;
  if (element.masterId && aggregate) {
    const revision = aggregate.product.revision;
    const fingerprint = await fingerprintWith(aggregateAfter(aggregate, element.id, plan.applyTo), context.paths);
    if (contended) bump = bumpWithFingerprintIf(db, element.masterId, revision, fingerprint);
    else statements.push(guardStatement(db, revisionIs(tenant.companyId, element.masterId, revision)));
    statements.push(
      ...history,
      plan.statement,
      ...(plan.follow ?? []),
      bump ?? bumpWithFingerprint(db, element.masterId, revision, fingerprint),
    );
  } else {
    // Catalogs and categories have no revision: the guard is the value at the path itself.
    if (!contended) statements.push(guardStatement(db, sql`${exists} AND ${plan.currentSql} IS ${current}`));
    statements.push(...history, plan.statement);
  }
  const renamesCategory = element.kind === 'category' && input.field === 'name' && !translating;
  if (renamesCategory) statements.push(categoryPathChanged(db, tenant.companyId, element.id));
  let results: unknown[] = [];
  // completeness events compare the element once, before and after the whole write
  const batch = withCompletenessEventsAtEnd(db, statements);
  try {
    results = await runBatch(db, batch);
  } catch (err) {
    if (isWriteConflict(err)) throw err;
    // Two writers can set the same SKU at once; the unique index decides, and the loser gets 409.
    rethrowSkuClash(err, plan.value);
  }
  const [bumped] = (bump ? results[batch.indexOf(bump)] : []) as {
    revision: number;
    fingerprintRevision: number;
  }[];
  const stale = bumped && bumped.fingerprintRevision !== bumped.revision ? element.masterId : null;
  return { element, value: plan.value, language, renamesCategory, stale };
}
