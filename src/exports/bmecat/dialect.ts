import type { ExportWarnings } from '../export-warnings';
import type { GroupRow } from './catalog-queries';
import type { BmecatPlan } from './plan';
import type { BmecatFormat } from './template-options';
import type { ProductView } from './product-view';

/**
 * How one BMEcat dialect (2005, the ETIM 5.0 profile, 1.2) writes each part of the document.
 * The exporter (bmecat-exporter.ts) owns paging and progress; a dialect only renders text,
 * reporting what it adjusted to `w`.
 */
export interface Dialect {
  format: BmecatFormat;
  /** XML declaration, root element, HEADER, and the opening of T_NEW_CATALOG. */
  header(plan: BmecatPlan, w: ExportWarnings): string;
  /** CATALOG_GROUP_SYSTEM, for dialects that carry the category tree. */
  groups: {
    /** The opening of CATALOG_GROUP_SYSTEM with its root CATALOG_STRUCTURE (the catalog). */
    open(plan: BmecatPlan, w: ExportWarnings): string;
    /** One category as CATALOG_STRUCTURE. */
    structure(plan: BmecatPlan, row: GroupRow, w: ExportWarnings): string;
    close: string;
  } | null;
  /** Whether T_NEW_CATALOG carries the catalog's FORMULAS after the group system (BMEcat 2005: formulas-out.ts). */
  formulas?: boolean;
  /** One PRODUCT / ARTICLE. */
  product(plan: BmecatPlan, view: ProductView, w: ExportWarnings): string;
  /** One PRODUCT_TO_CATALOGGROUP_MAP entry, for dialects that carry the tree. */
  mapEntry: ((productPid: string, groupId: string) => string) | null;
  /** Closes T_NEW_CATALOG and the root. */
  footer: string;
}
