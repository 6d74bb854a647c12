import type { Database } from '../../db/client';
import type { ReferenceCache } from '../../catalog/upsert/resolve/reference-cache';
import type { UpsertRecord } from '../../catalog/upsert/upsert-types';
import type { Caller } from '../../kernel/caller';
import type { FileWarning, ProductAction } from './record-actions';
import type { LanguagesNotEnabled } from '../read/file-languages';
import type { TextsOnly } from '../write/texts-only';

/** What every step of one import batch works within: the job, its catalog and its options. */
export interface BatchScope {
  db: Database;
  jobId: string;
  companyId: string;
  /** The job's actor (surface `job`): one history entry per product per batch. */
  actor: Caller;
  catalogId: string;
  mode: 'upsert' | 'createOnly';
  dryRun: boolean;
  /** Reject a product for any field that does not check (the behaviour before tolerance); default false. */
  strict: boolean;
  cache: ReferenceCache;
  /** Where deleted products' media files are deleted (null: left, as in tests of the batch alone). */
  files: R2Bucket | null;
  /** The catalog's default language: the file's texts in it go to the columns, the others to translations. */
  catalogLanguage: string;
  /** Texts in a language the company has not enabled: fail the import (default) or leave them out. */
  languagesNotEnabled: LanguagesNotEnabled;
  /**
   * A file of our own BMEcat export: a variant's price equal to its master's is the master's,
   * written for the buyer, and stays inherited (upsert-products.ts `inheritMasterPrices`).
   */
  inheritMasterPrices?: boolean;
  /** A file of our own BMEcat export: a variant's other values equal to its master's stay inherited (inherited-fields.ts). */
  inheritMasterValues?: boolean;
  /**
   * The category scope of a member limited to subtrees of this catalog (docs/teams.md, "Imports
   * by a scoped member"): every product row, deletion, price update and category is judged
   * against the subtrees; a row outside is rejected and reported, the others land. Absent for a
   * company-wide member (or one whose scope names the catalog): no scope query at all.
   */
  scopeCategoryIds?: readonly string[];
  /** A texts-only import (write/texts-only.ts): the texts of existing products in these languages, nothing else. */
  texts?: TextsOnly;
}

/** A product read from the file, with where it was and what it is. */
export interface PendingProduct {
  seq: number;
  sku: string;
  location: string;
  record: UpsertRecord;
  /** The record element's path (/BMECAT/T_NEW_CATALOG/PRODUCT) and line, for warnings below it. */
  path?: string;
  line?: number;
  action?: ProductAction;
  /** Field problems the reader met (e.g. an order unit mapped through the alias table). */
  warnings?: FileWarning[];
  origins?: Map<string, { line: number; path: string }>;
}
