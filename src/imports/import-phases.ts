import { runBatch, type BatchStatement, type Database } from '../db/client';
import type { JobRow } from '../jobs/jobs';
import { ExportWarnings } from '../exports/export-warnings';
import type { FileGroup } from './records/bmecat-records';
import type { BatchScope, PendingProduct } from './records/batch-types';
import { flushMapEntries, flushProducts, scopeInside, type PendingPlacement } from './write/import-batches';
import { CategoryMatcher, stageGroups } from './write/import-categories';
import { categoryLinkStatements } from './records/category-links';
import { saveStatements, startOf, type ImportCheckpoint } from './read/import-checkpoint';
import { decideLanguages, languagesOfRecord } from './read/file-languages';
import { writeGroupDetails } from './write/group-details';
import { readCompanyLanguages } from '../model/company-languages';
import { parseLanguage } from '../kernel/languages';
import { items } from './records/import-items';
import { reasonLabel, type Rejection } from './report/import-report';
import { placementsOf, stagePlacements } from './write/import-staging';
import { ignoredField } from './write/texts-only';
import { formulaBatch, FORMULAS_OUTSIDE_SCOPE, type PendingFormula } from './write/import-formulas';

export type PhaseOutcome = 'next' | 'continued' | 'stopped';

/** One invocation's view of an import job. */
export interface SliceRun {
  db: Database;
  files: R2Bucket;
  job: JobRow;
  cp: ImportCheckpoint;
  key: string;
  started: number;
  sliceMs: number;
  batchSize: number;
  scope: BatchScope;
}

const overBudget = (run: SliceRun) => Date.now() - run.started > run.sliceMs;

/**
 * Whether the checkpoint moved past `from` (the slice's start, as JSON). An xChange Product's
 * records before its last resume before the Product, so a checkpoint saved on one of them can
 * be where the slice began: ending the slice there would start the same Product over for ever.
 */
const movedOn = (run: SliceRun, from: string) => JSON.stringify(run.cp.at) !== from;

/** Saves the next checkpoint in one transaction with `statements` (guarded: see guardStatement). */
export async function saveCheckpoint(
  run: SliceRun,
  statements: BatchStatement[],
  next: ImportCheckpoint,
): Promise<void> {
  const saved = { ...next, seq: run.cp.seq + 1 };
  await runBatch(run.db, [...statements, ...saveStatements(run.db, run.job.id, run.cp.seq, saved)]);
  run.cp = saved;
}

/**
 * Reads the whole file without touching the catalog: a file that is not well-formed (or not
 * the format) fails here, before anything is written. Counts the products (progress total)
 * and stages the group system for the groups phase and the group map for the products phase.
 */
export async function validatePhase(run: SliceRun): Promise<PhaseOutcome> {
  const from = JSON.stringify(run.cp.at);
  const next: ImportCheckpoint = structuredClone(run.cp);
  let groups: (FileGroup & { position: number })[] = [];
  let entries: { sku: string; groupId: string }[] = [];
  const staged = () => [...stageGroups(run.db, run.job.id, groups), ...stagePlacements(run.db, run.job.id, entries)];
  for await (const piece of items(run, run.cp.at, false))
    for (const item of piece) {
      if (item.kind === 'group' && item.group) groups.push({ ...item.group, position: item.seq });
      if (item.kind === 'product') next.total++;
      if ((item.kind === 'product' || item.kind === 'group') && item.languages) {
        const seen = (next.seenLanguages ??= {});
        const where = item.kind === 'product' ? item.location : `group ${item.group?.groupId ?? '?'}`;
        for (const language of languagesOfRecord(item.languages))
          seen[language] = { count: (seen[language]?.count ?? 0) + 1, example: seen[language]?.example ?? where };
      }
      if (item.kind === 'map') {
        next.hasMap = true;
        if (item.entry) entries.push(item.entry);
      }
      next.at = item.after;
      if (groups.length >= 200 || entries.length >= 2000 || (item.seq % 100 === 0 && overBudget(run))) {
        await saveCheckpoint(run, staged(), next);
        groups = [];
        entries = [];
        if (overBudget(run) && movedOn(run, from)) return 'continued';
      }
    }
  await saveCheckpoint(run, staged(), {
    ...next,
    // Every format names its languages now: BMEcat, ETIM xChange and CSV (`name@eng` columns).
    ...(await fileLanguagesOf(run, next)),
    phase: run.cp.format === 'CSV' ? 'products' : 'groups',
    at: startOf(run.cp.format),
  });
  return 'next';
}

/**
 * The file's languages (BMEcat's, a CSV's `name@eng` columns) once the validation pass has
 * counted them: the import fails here, before the catalog is touched, for a language the company
 * has not enabled, unless the job skips those texts (then one warning per language, with its count).
 */
async function fileLanguagesOf(run: SliceRun, next: ImportCheckpoint): Promise<Partial<ImportCheckpoint>> {
  const catalogLanguage = run.scope.catalogLanguage;
  const written = next.headerLanguage;
  const { languages, warnings } = decideLanguages(
    await readCompanyLanguages(run.db, run.scope),
    next.seenLanguages ?? {},
    { fileDefault: written ? (parseLanguage(written) ?? written) : catalogLanguage, catalogLanguage },
    run.scope.languagesNotEnabled,
  );
  const tally = { ...next.warnings };
  for (const w of warnings) tally[w.message] = { count: w.count, examples: [w.example] };
  return { languages, warnings: tally };
}

/** The warnings of a scoped member's file parts that would change a category outside their subtrees (docs/teams.md). */
const OUTSIDE_LINK = 'category link to a category outside your scope: not written';
const OUTSIDE_GROUP_DATA = 'texts or data of a group whose category is outside your scope: not written';

/**
 * File text per batch at most (besides `batchSize` products): what one transaction writes and
 * the memory a batch holds stay bounded however large the products are.
 */
export const MAX_BATCH_BYTES = 2 * 1024 * 1024;

/**
 * Reads the file again and writes it: products in batches of `batchSize` or MAX_BATCH_BYTES
 * (one transaction each, with the report rows of rejected products and the checkpoint after
 * the batch's last record), then checks the group map in pages. Masters get their placements
 * from the group map the validation pass staged (with a map in the file, it is their
 * placements), so each product is written once. A slice ends after the batch that spends its budget.
 */
export async function readProductsPhase(run: SliceRun): Promise<PhaseOutcome> {
  const from = JSON.stringify(run.cp.at);
  const next: ImportCheckpoint = structuredClone(run.cp);
  const warnings = new ExportWarnings(next.warnings);
  // a member limited to subtrees: the categories the import may create below and change (read once per slice)
  const inside = await scopeInside(run.scope);
  // a texts-only import places nothing and creates no category (write/texts-only.ts)
  const texts = run.scope.texts;
  const matcher = run.cp.format === 'CSV' && !texts ? new CategoryMatcher(run.db, { ...run.scope, inside }) : null;
  let products: (PendingProduct & {
    categoryPaths?: string[][];
    categoryLinks?: { path: string[]; url: string }[];
  })[] = [];
  let rejections: Rejection[] = [];
  let placements: PendingPlacement[] = [];
  let unreadableEntries: Rejection[] = [];
  let pendingAt = run.cp.at;
  let batchStart = run.cp.at.offset;

  const checkpoint = (final: boolean): ImportCheckpoint => ({
    ...next,
    at: final ? startOf(next.format) : pendingAt,
    phase: final ? 'finish' : 'products',
    warnings: warnings.toJSON(),
  });
  const commit = (final: boolean) => {
    const saved = { ...checkpoint(final), seq: run.cp.seq + 1 };
    return { saved, statements: saveStatements(run.db, run.job.id, run.cp.seq, saved) };
  };
  const placeProducts = async () => {
    if (matcher) {
      const createdBefore = matcher.created;
      for (const p of products) {
        if (!p.categoryPaths) continue;
        // One path after the other: the matcher's cache of siblings must see each new category.
        const ids: string[] = [];
        for (const path of p.categoryPaths) ids.push(await matcher.matchPath(path));
        p.record.categoryIds = ids;
      }
      // Category links of the batch's rows (the `categoryMedia` cell), their categories created by path as well.
      const links: { categoryId: string; links: string }[] = [];
      for (const p of products)
        for (const link of p.categoryLinks ?? []) {
          const categoryId = await matcher.matchPath(link.path);
          if (matcher.mayChange(categoryId)) links.push({ categoryId, links: JSON.stringify([{ url: link.url }]) });
          else warnings.add(OUTSIDE_LINK, p.sku);
        }
      // A dry run counts the categories it would create (its stand-in ids place the products) and writes none.
      const made = matcher.takeStatements();
      // Links follow their categories in the same transaction; a URL the category has is not added again (resumable).
      if (links.length > 0 && !run.scope.dryRun)
        made.push(...(await categoryLinkStatements(run.db, run.scope.companyId, links)).statements);
      if (!run.scope.dryRun) await runBatch(run.db, made);
      // The matcher lives for the slice; count what this batch added (the sum over the slice counted batches again).
      next.counts.categoriesCreated += matcher.created - createdBefore;
    } else if (next.hasMap && !texts) {
      const masters = products.filter((p) => !p.record.parentSku);
      const placed = await placementsOf(
        run.db,
        run.job.id,
        masters.map((p) => p.sku),
      );
      for (const p of masters) p.record.categoryIds = placed.get(p.sku) ?? [];
    }
  };
  const flush = async (final: boolean) => {
    if (products.length > 0 || rejections.length > 0) {
      await placeProducts();
      let saved: ImportCheckpoint | null = null;
      await flushProducts(run.scope, products, next.counts, {
        rejections,
        tally: (w) => {
          if (w.code !== 'feature_system_skipped') warnings.add(reasonLabel(w.code), w.sku ?? w.location);
        },
        ignore: (field, sku) => warnings.add(ignoredField(field), sku),
        commit: () => {
          const c = commit(final);
          saved = c.saved;
          return c.statements;
        },
      });
      run.cp = saved!;
    } else if (placements.length > 0 || unreadableEntries.length > 0) {
      let saved: ImportCheckpoint | null = null;
      const save = () => {
        const c = commit(final);
        saved = c.saved;
        return c.statements;
      };
      await flushMapEntries(run.scope, placements, next.counts, save, unreadableEntries);
      run.cp = saved!;
    } else if (final) {
      await saveCheckpoint(run, [], checkpoint(true));
    }
    products = [];
    rejections = [];
    placements = [];
    unreadableEntries = [];
    batchStart = pendingAt.offset;
  };

  // A 2005 file's FORMULAs (before its products): written in their own transactions with the checkpoint after them.
  let formulas: PendingFormula[] = [];
  const writeFormulas = async () => {
    if (formulas.length === 0) return;
    const batch = formulaBatch(run.scope, formulas);
    for (const p of batch.problems) {
      warnings.add(reasonLabel(p.code), p.subject);
      if (p.rejected) next.counts.rejected++;
    }
    if (batch.kept > 0 && run.scope.scopeCategoryIds) warnings.add(FORMULAS_OUTSIDE_SCOPE, 'FORMULAS');
    if (batch.kept > 0 && texts) warnings.add(ignoredField('formulas'), 'FORMULAS');
    const c = commit(false);
    await runBatch(run.db, [...batch.statements, ...c.statements]);
    run.cp = c.saved;
    formulas = [];
    batchStart = pendingAt.offset;
  };

  let groupTexts: FileGroup[] = [];
  const groupScope = { companyId: run.scope.companyId, jobId: run.job.id, inside };
  const writeGroups = async (groups: FileGroup[]) => {
    for (const groupId of await writeGroupDetails(run.db, groupScope, groups))
      warnings.add(OUTSIDE_GROUP_DATA, groupId);
  };
  for await (const piece of items(run, run.cp.at))
    for (const item of piece) {
      if (item.kind === 'group') {
        if (texts) warnings.add(ignoredField('categories'), `group ${item.group?.groupId ?? '?'}`);
        // The groups' further languages and data, now that their categories exist (group-details.ts).
        else if ((item.group?.translations || item.group?.data) && !run.scope.dryRun) groupTexts.push(item.group);
        if (groupTexts.length >= 200) {
          await writeGroups(groupTexts);
          groupTexts = [];
        }
        pendingAt = item.after;
        continue;
      }
      if (groupTexts.length > 0) {
        await writeGroups(groupTexts);
        groupTexts = [];
      }
      if (item.kind === 'formula') {
        // One kind per transaction: products or map entries read before are committed first.
        if (products.length + rejections.length + placements.length + unreadableEntries.length > 0) await flush(false);
        formulas.push({ seq: item.seq, location: item.location, reading: item.reading });
        pendingAt = item.after;
        if (formulas.length >= 50 || item.after.offset - batchStart >= MAX_BATCH_BYTES) {
          await writeFormulas();
          if (overBudget(run) && movedOn(run, from)) return 'continued';
        }
        continue;
      }
      await writeFormulas();
      // One kind per transaction, so the checkpoint after it covers exactly what it wrote.
      if (
        (item.kind === 'map' && (products.length > 0 || rejections.length > 0)) ||
        (item.kind === 'product' && placements.length + unreadableEntries.length > 0)
      )
        await flush(false);
      if (item.kind === 'product') {
        next.done++;
        for (const s of item.skipped) warnings.add(s, item.sku ?? item.location);
        if (item.record)
          products.push({
            seq: item.seq,
            sku: item.sku!,
            location: item.location,
            record: item.record,
            categoryPaths: item.categoryPaths,
            categoryLinks: item.categoryLinks,
            path: item.path,
            line: item.line,
            action: item.action,
            warnings: item.warnings,
            origins: item.origins,
          });
        else
          rejections.push({
            seq: item.seq,
            sku: item.sku,
            location: item.location,
            reason: item.problem ?? 'unreadable',
            code: 'sku_missing',
          });
      } else if (texts) {
        warnings.add(ignoredField('categories'), item.entry?.sku ?? item.location);
      } else if (item.entry) {
        placements.push({ seq: item.seq, location: item.location, ...item.entry });
      } else {
        unreadableEntries.push({
          seq: item.seq,
          sku: null,
          location: item.location,
          reason: 'PROD_ID or CATALOG_GROUP_ID is missing',
          code: 'map_entry_incomplete',
        });
      }
      pendingAt = item.after;
      if (
        products.length + rejections.length >= run.batchSize ||
        item.after.offset - batchStart >= MAX_BATCH_BYTES ||
        placements.length + unreadableEntries.length >= 2000
      ) {
        await flush(false);
        if (overBudget(run) && movedOn(run, from)) return 'continued';
      }
    }
  await writeGroups(groupTexts);
  await writeFormulas();
  await flush(true);
  return 'next';
}
