import type { ExportWarnings } from './export-warnings';
import type { CatalogRow } from './exporter';

/**
 * A format without a category tree (the ETIM BMEcat profile, ETIM xChange) leaves out the
 * catalog's categories, their texts and media links, and the products' placements: reported once
 * per file when the catalog has categories (issue 32: KS Tools' 1,660 groups with 1,708 MIMEs
 * went into an xChange file without a word). docs/exports.md says what each format carries.
 */
export function reportNoCategoryTree(catalog: CatalogRow, format: string, w: ExportWarnings): void {
  if (catalog.categoryCount > 0)
    w.add(
      `category tree left out (${catalog.categoryCount} categories with their texts and media links, and the products' placements): ${format} has none`,
      'catalog',
    );
}
