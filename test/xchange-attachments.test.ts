import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { xchangeMediaOf } from '../src/imports/records/xchange-media';
import type { FileWarning } from '../src/imports/records/record-actions';
import { exportedFile } from './helpers/export-fixtures';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { reportRows, importTextToEnd } from './helpers/import-fixtures';

/**
 * Issue 32: an ETIM xChange attachment's AttachmentType, AttachmentTypeSpecification, languages
 * and dates (the official V2.0 sample's shape: a RoHS declaration ATX004 / MDX049 in en-GB and
 * nl-NL with issue and expiry dates, a picture ATX018 / MDX026). A link keeps the specification
 * as its mimeCode, every entry its type, languages and dates as its `attachment` (migration
 * 0082), and the export writes them back; what does not check is reported naming the field.
 */
type Tenant = { companyId: string; departmentId: string; userId: string };

const LANGUAGES = { fileDefault: 'deu', catalogLanguage: 'deu', skip: [] };

const ROHS = {
  AttachmentType: 'ATX004',
  AttachmentTypeSpecification: 'MDX049',
  AttachmentDetails: [
    {
      AttachmentLanguage: ['de-DE', 'nl-NL'],
      AttachmentFilename: 'att-1-rohs.pdf',
      AttachmentUri: 'https://cdn.example.com/att-1-rohs.pdf',
      AttachmentDescription: [{ Language: 'de-DE', AttachmentDescription: 'RoHS-Erklärung' }],
      AttachmentIssueDate: '2023-05-01',
      AttachmentExpiryDate: '2026-05-01',
    },
  ],
};
/** What the RoHS declaration's media entry keeps (languages as ISO 639-2). */
const ROHS_KEPT = { type: 'ATX004', languages: ['deu', 'nld'], issueDate: '2023-05-01', expiryDate: '2026-05-01' };
const PICTURE = {
  AttachmentType: 'ATX018',
  AttachmentTypeSpecification: 'MDX026',
  AttachmentDetails: [{ AttachmentFilename: 'att-1.jpg', AttachmentUri: 'https://cdn.example.com/att-1.jpg' }],
};
const MANUAL = {
  AttachmentType: 'ATX099',
  AttachmentTypeSpecification: 'MDX999',
  AttachmentDetails: [{ AttachmentUri: 'manuals/att-1-manual.pdf' }],
};

const file = (attachments: unknown[]) =>
  JSON.stringify({
    SchemaVersion: '2.0',
    CatalogueId: 'ATT-2026',
    CatalogueType: 'FULL',
    CatalogueValidityStart: '2026-01-01',
    Language: ['de-DE'],
    CurrencyCode: 'EUR',
    Supplier: [
      {
        SupplierName: 'Attachment Supplier',
        Product: [
          {
            ProductIdentification: { ManufacturerName: 'Maker', ManufacturerProductNumber: 'M-ATT-1' },
            ProductDetails: {
              ProductStatus: 'ACTIVE',
              ProductDescriptions: [{ DescriptionLanguage: 'de-DE', MinimalProductDescription: 'Leuchte' }],
            },
            ProductAttachments: attachments,
            TradeItem: [
              {
                ItemIdentification: { SupplierItemNumber: 'ATT-1' },
                Ordering: { OrderUnit: 'C62', MinimumOrderQuantity: '1', OrderStepSize: '1' },
              },
            ],
          },
        ],
      },
    ],
  });

const importText = (tenant: Tenant, catalogId: string, text: string) =>
  importTextToEnd(tenant, catalogId, text, { batchSize: 1 });

async function mediaOf(catalogId: string, sku: string) {
  const row = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)),
  });
  const [aggregate] = await loadProductAggregates(db(), row!.companyId, [row!.id]);
  return { productId: row!.id, media: aggregate!.media };
}

describe('xChange attachments: type specification, languages and dates', () => {
  it('keeps the type, languages and dates of every attachment and reports what does not check', () => {
    const warnings: FileWarning[] = [];
    const odd = {
      AttachmentType: 'ATX777',
      AttachmentDetails: [
        {
          AttachmentLanguage: ['xx-XX', 'de-DE'],
          AttachmentUri: 'https://cdn.example.com/odd.pdf',
          AttachmentIssueDate: '1. Mai 2023',
          AttachmentExpiryDate: '2026-05-01',
        },
      ],
    };
    const media = xchangeMediaOf(
      [ROHS, PICTURE, MANUAL, { ...PICTURE, AttachmentTypeSpecification: 'MDX001' }, odd],
      LANGUAGES,
      warnings,
    );
    expect(media.map((m) => [m.fileName, m.purpose, m.mimeCode ?? null, m.attachment ?? null])).toEqual([
      [
        'att-1-rohs.pdf',
        'others',
        'MDX049',
        { type: 'ATX004', languages: ['deu', 'nld'], issueDate: '2023-05-01', expiryDate: '2026-05-01' },
      ],
      ['att-1.jpg', 'normal', 'MDX026', { type: 'ATX018' }],
      // A file reference has no type code (reported below), but keeps its type.
      ['att-1-manual.pdf', 'others', null, { type: 'ATX099' }],
      // Not a code of the schema: not kept.
      ['att-1.jpg', 'normal', null, { type: 'ATX018' }],
      // What checks is kept, the rest reported.
      ['odd.pdf', 'others', null, { languages: ['deu'], expiryDate: '2026-05-01' }],
    ]);
    expect(warnings.map((w) => [w.code, w.path, w.message])).toEqual([
      [
        'attachment_not_kept',
        '.ProductAttachments[2].AttachmentDetails[0].AttachmentTypeSpecification',
        'AttachmentTypeSpecification MDX999 not kept: only a link keeps its type code',
      ],
      [
        'attachment_not_kept',
        '.ProductAttachments[3].AttachmentDetails[0].AttachmentTypeSpecification',
        'AttachmentTypeSpecification "MDX001" is no code of the schema: not kept',
      ],
      [
        'attachment_not_kept',
        '.ProductAttachments[4].AttachmentDetails[0].AttachmentType',
        'AttachmentType "ATX777" is no code of the schema: not kept',
      ],
      [
        'attachment_not_kept',
        '.ProductAttachments[4].AttachmentDetails[0].AttachmentLanguage',
        'AttachmentLanguage "xx-XX" is no language known here: not kept',
      ],
      [
        'attachment_not_kept',
        '.ProductAttachments[4].AttachmentDetails[0].AttachmentIssueDate',
        'AttachmentIssueDate "1. Mai 2023" is not a date YYYY-MM-DD: not kept',
      ],
    ]);
  });

  it('round trip: type, specification, languages and dates come back in the export; shown and set through the API', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    const { jobId, job } = await importText(session.tenant, catalog.catalogId, file([ROHS, PICTURE, MANUAL]));
    // Only the manual's type specification (a file reference keeps none) is reported now.
    expect(job.summary).toMatchObject({ created: 1, 'warnings.attachment_not_kept': 1 });
    const report = (await reportRows(jobId)).map((r) => r.join(' | '));
    expect(report).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /ProductAttachments\[2\]\.AttachmentDetails\[0\]\.AttachmentTypeSpecification .*not kept/,
        ),
      ]),
    );
    const { productId, media } = await mediaOf(catalog.catalogId, 'ATT-1');
    expect(media.map((m) => [m.fileName, m.url ?? null, m.mimeCode ?? null, m.attachment ?? null])).toEqual([
      ['att-1-rohs.pdf', 'https://cdn.example.com/att-1-rohs.pdf', 'MDX049', ROHS_KEPT],
      ['att-1.jpg', 'https://cdn.example.com/att-1.jpg', 'MDX026', { type: 'ATX018' }],
      ['att-1-manual.pdf', null, null, { type: 'ATX099' }],
    ]);
    // Shown where media entries are shown: GetProduct and the media list.
    const shown = await call('GET', `/api/Catalog/GetProduct?productId=${productId}`, { cookie: session.cookie });
    expect(shown.status, shown.text).toBe(200);
    expect(shown.json.media.map((m: any) => m.attachment)).toEqual([ROHS_KEPT, { type: 'ATX018' }, { type: 'ATX099' }]);

    // What a read returns, a write accepts: the link's xChange code goes back through UpdateLink.
    const update = await call('POST', '/api/Media/UpdateLink', {
      cookie: session.cookie,
      body: {
        departmentId: session.tenant.departmentId,
        mediaId: media[0]!.mediaId,
        mimeCode: 'MDX049',
        alt: 'RoHS',
        attachment: ROHS_KEPT,
      },
    });
    expect(update.status, update.text).toBe(200);
    expect(update.json).toMatchObject({ mimeCode: 'MDX049', attachment: ROHS_KEPT });
    // A bad attachment is refused and changes nothing.
    const bad = await call('POST', '/api/Media/UpdateLink', {
      cookie: session.cookie,
      body: {
        departmentId: session.tenant.departmentId,
        mediaId: media[0]!.mediaId,
        attachment: { type: 'ATX004', issueDate: '2026-05-01', expiryDate: '2023-05-01' },
      },
    });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.json.error).toMatch(/expiryDate/);
    expect((await mediaOf(catalog.catalogId, 'ATT-1')).media[0]!.attachment).toEqual(ROHS_KEPT);
    // A BMEcat ETIM MIME code has no xChange specification this service could name: reported.
    const added = await call('POST', '/api/Media/AddLink', {
      cookie: session.cookie,
      body: {
        departmentId: session.tenant.departmentId,
        elementId: productId,
        url: 'https://cdn.example.com/att-1-sheet.pdf',
        mimeCode: 'MD02',
      },
    });
    expect(added.status, added.text).toBe(200);

    const { text, warnings } = await exportedFile(session.tenant, catalog.catalogId, 'ETIMxChange');
    const exported = JSON.parse(text).Supplier[0].Product[0].ProductAttachments;
    // The file reference never uploaded is left out (xchange-product.ts); the MD02 link has no specification.
    expect(
      exported.map((a: any) => [
        a.AttachmentDetails[0].AttachmentFilename,
        a.AttachmentType,
        a.AttachmentTypeSpecification ?? null,
      ]),
    ).toEqual([
      ['att-1-rohs.pdf', 'ATX004', 'MDX049'],
      ['att-1.jpg', 'ATX018', 'MDX026'],
      ['att-1-sheet.pdf', 'ATX099', null],
    ]);
    expect(exported[0].AttachmentDetails[0]).toMatchObject({
      AttachmentLanguage: ['de-DE', 'nl-NL'],
      AttachmentIssueDate: '2023-05-01',
      AttachmentExpiryDate: '2026-05-01',
    });
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^media MIME code MD02 left out: no ETIM xChange AttachmentTypeSpecification/),
      ]),
    );

    // Imported again, the links keep their specification, type, languages and dates.
    const again = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, again.catalogId, text);
    expect(
      (await mediaOf(again.catalogId, 'ATT-1')).media.map((m) => [m.mimeCode ?? null, m.attachment ?? null]),
    ).toEqual([
      ['MDX049', ROHS_KEPT],
      ['MDX026', { type: 'ATX018' }],
      [null, { type: 'ATX099' }],
    ]);

    // The ETIM BMEcat guideline has the dates (UDX.EDXF.MIME_ISSUE_DATE / _EXPIRY_DATE): written and read back.
    const etim = await exportedFile(session.tenant, catalog.catalogId, 'BMEcat-ETIM');
    expect(etim.text).toContain('<UDX.EDXF.MIME_ISSUE_DATE>2023-05-01</UDX.EDXF.MIME_ISSUE_DATE>');
    expect(etim.text).toContain('<UDX.EDXF.MIME_EXPIRY_DATE>2026-05-01</UDX.EDXF.MIME_EXPIRY_DATE>');
    const fromEtim = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, fromEtim.catalogId, etim.text);
    expect((await mediaOf(fromEtim.catalogId, 'ATT-1')).media[0]!.attachment).toEqual({
      issueDate: '2023-05-01',
      expiryDate: '2026-05-01',
    });
  });

  it('the history records an attachment change and RestoreVersion brings the attachment back', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, catalog.catalogId, file([ROHS]));
    const { productId, media } = await mediaOf(catalog.catalogId, 'ATT-1');
    const versions = async () =>
      (await call('GET', `/api/Catalog/GetHistory?elementId=${productId}`, { cookie: session.cookie })).json.items;
    const before = (await versions())[0].versionId;
    const changed = await call('POST', '/api/Media/UpdateLink', {
      cookie: session.cookie,
      body: { departmentId: session.tenant.departmentId, mediaId: media[0]!.mediaId, attachment: null },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.attachment).toBeNull();
    expect((await versions())[0].changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: `media.${media[0]!.mediaId}` })]),
    );
    const restored = await call('POST', '/api/Catalog/RestoreVersion', {
      cookie: session.cookie,
      body: { departmentId: session.tenant.departmentId, elementId: productId, versionId: before },
    });
    expect(restored.status, restored.text).toBe(200);
    expect((await mediaOf(catalog.catalogId, 'ATT-1')).media[0]!.attachment).toEqual(ROHS_KEPT);
  });
});
