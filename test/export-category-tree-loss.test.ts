import { describe, expect, it } from 'vitest';
import { exportedFile } from './helpers/export-fixtures';
import { makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';

/**
 * Issue 32 (audit of the supplier samples): KS Tools' 1,660 groups with 1,708 category MIMEs went
 * into an ETIM xChange file without a word. The formats without a category tree (the ETIM
 * profile, xChange) now say in the job's warnings that they left it out; the others carry it.
 */
describe('an export to a format without a category tree', () => {
  it('reports the tree it leaves out, and only where the catalog has one', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Baum' });
    const parent = await makeCategory(session.tenant, catalogId, { name: 'Werkzeug' });
    await makeCategory(session.tenant, catalogId, { name: 'Zangen', parentId: parent.categoryId });
    await makeProduct(session.tenant, catalogId, { sku: 'ZANGE-1', name: 'Zange' });

    const profile = await exportedFile(session.tenant, catalogId, 'BMEcat-ETIM');
    expect(profile.warnings).toContain(
      "category tree left out (2 categories with their texts and media links, and the products' placements): the ETIM guideline has none: 1 time (e.g. catalog)",
    );
    const xchange = await exportedFile(session.tenant, catalogId, 'ETIMxChange');
    expect(xchange.warnings).toContain(
      "category tree left out (2 categories with their texts and media links, and the products' placements): ETIM xChange has none: 1 time (e.g. catalog)",
    );
    for (const format of ['BMEcat', 'BMEcat12']) {
      const { text, warnings } = await exportedFile(session.tenant, catalogId, format);
      expect(text, format).toContain('Zangen');
      expect(
        warnings.filter((w) => w.startsWith('category tree left out')),
        format,
      ).toEqual([]);
    }

    const { catalogId: flat } = await makeCatalog(session.tenant, { name: 'Flach' });
    await makeProduct(session.tenant, flat, { sku: 'ZANGE-2', name: 'Zange' });
    for (const format of ['BMEcat-ETIM', 'ETIMxChange']) {
      const { warnings } = await exportedFile(session.tenant, flat, format);
      expect(
        warnings.filter((w) => w.startsWith('category tree left out')),
        format,
      ).toEqual([]);
    }
  });
});
