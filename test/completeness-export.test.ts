import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { exportTemplates } from '../src/db/schema';
import { db, makeCategory, makeProduct } from './helpers/factories';
import { get, post, shopSetup, waitForJob } from './helpers/completeness';

describe('Exports limited to complete products', () => {
  it('writes only the complete products and warns how many it left out and why', async () => {
    const { admin, catalog } = await shopSetup();
    const shop = await post(admin.cookie, '/api/Catalog/AddChannel', {
      name: 'Shop',
      languages: ['deu'],
      requirements: [{ kind: 'field', field: 'gtin' }],
    });
    await waitForJob(admin.cookie, shop.json.jobId);
    await makeProduct(admin.tenant, catalog.catalogId, { sku: 'COMPLETE-1', gtin: '4006381333931' });
    await makeProduct(admin.tenant, catalog.catalogId, { sku: 'NO-GTIN-1' });
    await makeProduct(admin.tenant, catalog.catalogId, { sku: 'NO-GTIN-2' });
    const template = await post(admin.cookie, '/api/Export/AddTemplate', {
      name: 'Shop feed',
      exportType: 'BMEcat',
      options: { channelId: shop.json.channelId, onlyComplete: true },
    });
    expect(template.status, template.text).toBe(200);
    const started = await post(admin.cookie, '/api/Export/StartExport', {
      departmentId: admin.departmentId,
      catalogId: catalog.catalogId,
      templateId: template.json.templateId,
    });
    expect(started.status, started.text).toBe(200);
    const job = await waitForJob(admin.cookie, started.json.jobId);
    expect(job.state, job.error).toBe('succeeded');
    // The catalog also publishes English, which the one written product lacks: the export says so too.
    expect([...job.warnings].sort()).toEqual(
      [
        'left out as incomplete for Shop (deu): 2 times (e.g. NO-GTIN-1, NO-GTIN-2)',
        'incomplete for Shop (deu): missing gtin: 2 times (e.g. NO-GTIN-1, NO-GTIN-2)',
        'DESCRIPTION_SHORT has no eng translation: left out in eng: 1 time (e.g. COMPLETE-1)',
      ].sort(),
    );
    const file = await get(admin.cookie, `/api/Export/Download?jobId=${started.json.jobId}`);
    expect(file.text).toContain('COMPLETE-1');
    expect(file.text).not.toContain('NO-GTIN');
  });

  it('leaves out the incomplete variants of a complete master, in every BMEcat dialect, and names them', async () => {
    const { admin, catalog } = await shopSetup();
    const shop = await post(admin.cookie, '/api/Catalog/AddChannel', {
      name: 'Shop',
      languages: ['deu'],
      requirements: [{ kind: 'field', field: 'gtin' }],
    });
    await waitForJob(admin.cookie, shop.json.jobId);
    const group = await makeCategory(admin.tenant, catalog.catalogId, { name: 'Drills' });
    const placed = { categoryIds: [group.categoryId] };
    const master = await makeProduct(admin.tenant, catalog.catalogId, { sku: 'M-1', gtin: '4006381333931', ...placed });
    await makeProduct(admin.tenant, catalog.catalogId, { sku: 'M-1-LACKS', parentId: master.productId });
    await makeProduct(admin.tenant, catalog.catalogId, {
      sku: 'M-1-OK',
      parentId: master.productId,
      gtin: '4006381333948',
    });
    // A draft variant the template's statuses leave out anyway is not named as left out for the channel.
    await makeProduct(admin.tenant, catalog.catalogId, {
      sku: 'M-1-DRAFT',
      parentId: master.productId,
      status: 'draft',
    });
    // A complete master whose only variant is incomplete is still written, without the variant.
    const alone = await makeProduct(admin.tenant, catalog.catalogId, { sku: 'M-2', gtin: '4006381333955', ...placed });
    await makeProduct(admin.tenant, catalog.catalogId, { sku: 'M-2-LACKS', parentId: alone.productId });
    // The variant of an incomplete master goes with its master, named under the master only.
    const lacking = await makeProduct(admin.tenant, catalog.catalogId, { sku: 'M-3', ...placed });
    await makeProduct(admin.tenant, catalog.catalogId, {
      sku: 'M-3-OK',
      parentId: lacking.productId,
      gtin: '4006381333962',
    });
    // An incomplete draft master the template's statuses leave out anyway is not named either.
    await makeProduct(admin.tenant, catalog.catalogId, { sku: 'M-4-DRAFT', status: 'draft', ...placed });
    for (const exportType of ['BMEcat', 'BMEcat12']) {
      const template = await post(admin.cookie, '/api/Export/AddTemplate', {
        name: `Shop feed ${exportType}`,
        exportType,
        options: { channelId: shop.json.channelId, onlyComplete: true, statuses: ['active'] },
      });
      expect(template.status, template.text).toBe(200);
      const started = await post(admin.cookie, '/api/Export/StartExport', {
        departmentId: admin.departmentId,
        catalogId: catalog.catalogId,
        templateId: template.json.templateId,
      });
      expect(started.status, started.text).toBe(200);
      const job = await waitForJob(admin.cookie, started.json.jobId);
      expect(job.state, job.error).toBe('succeeded');
      expect(job.warnings).toEqual(
        expect.arrayContaining([
          'left out as incomplete for Shop (deu): 1 time (e.g. M-3)',
          'variants left out as incomplete for Shop (deu): 2 times (e.g. M-1-LACKS, M-2-LACKS)',
          'incomplete for Shop (deu): missing gtin: 3 times (e.g. M-3, M-1-LACKS, M-2-LACKS)',
        ]),
      );
      expect(job.warnings.join('\n')).not.toContain('M-1-DRAFT');
      expect(job.warnings.join('\n')).not.toContain('M-4-DRAFT');
      // M-1, M-1-OK and M-2: the progress counts what was written.
      expect(job.progress).toEqual({ done: 3, total: 3 });
      const file = await get(admin.cookie, `/api/Export/Download?jobId=${started.json.jobId}`);
      for (const sku of ['M-1', 'M-1-OK', 'M-2']) expect(file.text, exportType).toContain(`>${sku}<`);
      // Neither in the products nor in the group map.
      for (const sku of ['M-1-LACKS', 'M-2-LACKS', 'M-3', 'M-3-OK', 'M-1-DRAFT', 'M-4-DRAFT'])
        expect(file.text, exportType).not.toContain(`>${sku}<`);
    }
  });

  it('refuses onlyComplete without a channel and a channel of another company (400, nothing stored)', async () => {
    const { admin } = await shopSetup();
    const other = await shopSetup();
    const theirs = await post(other.admin.cookie, '/api/Catalog/AddChannel', {
      name: 'Theirs',
      languages: ['deu'],
      requirements: [],
    });
    const none = await post(admin.cookie, '/api/Export/AddTemplate', {
      name: 'A',
      exportType: 'BMEcat',
      options: { onlyComplete: true },
    });
    expect(none.status).toBe(400);
    expect(none.json.error).toContain('options.onlyComplete');
    const foreign = await post(admin.cookie, '/api/Export/AddTemplate', {
      name: 'B',
      exportType: 'BMEcat',
      options: { channelId: theirs.json.channelId, onlyComplete: true },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.json.error).toContain('options.channelId');
    expect(await db().$count(exportTemplates, eq(exportTemplates.companyId, admin.companyId))).toBe(0);
  });
});
