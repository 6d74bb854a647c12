import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { xchangeMediaOf } from '../src/imports/records/xchange-media';
import type { FileWarning } from '../src/imports/records/record-actions';
import { exportedFile } from './helpers/export-fixtures';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import {
  importDeps,
  importJobRow,
  insertImportJob,
  putImportFile,
  reportRows,
  runImportToEnd,
} from './helpers/import-fixtures';

/**
 * Issue 32: an ETIM xChange attachment's AttachmentTypeSpecification, languages and dates (the
 * official V2.0 sample's shape: a RoHS declaration ATX004 / MDX049 in en-GB and nl-NL with issue
 * and expiry dates, a picture ATX018 / MDX026). A link keeps the specification as its mimeCode
 * and the export writes it back; what the media entry cannot hold is reported naming the field.
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

async function importText(tenant: Tenant, catalogId: string, text: string) {
  const fileId = await putImportFile(tenant, text, 'catalog.json');
  const jobId = await insertImportJob(tenant, { catalogId, fileId });
  await runImportToEnd(jobId, importDeps({ sliceMs: -1, batchSize: 1 }));
  const job = await importJobRow(jobId);
  expect(job.error).toBeNull();
  return { jobId, job };
}

async function mediaOf(catalogId: string, sku: string) {
  const row = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)),
  });
  const [aggregate] = await loadProductAggregates(db(), row!.companyId, [row!.id]);
  return { productId: row!.id, media: aggregate!.media };
}

describe('xChange attachments: type specification, languages and dates', () => {
  it('keeps a link’s AttachmentTypeSpecification as its mimeCode and reports each field it cannot hold', () => {
    const warnings: FileWarning[] = [];
    const media = xchangeMediaOf(
      [ROHS, PICTURE, MANUAL, { ...PICTURE, AttachmentTypeSpecification: 'MDX001' }],
      LANGUAGES,
      warnings,
    );
    expect(media.map((m) => [m.fileName, m.purpose, m.mimeCode ?? null])).toEqual([
      ['att-1-rohs.pdf', 'others', 'MDX049'],
      ['att-1.jpg', 'normal', 'MDX026'],
      // A file reference has no type code: reported below.
      ['att-1-manual.pdf', 'others', null],
      // Not a code of the schema: not kept.
      ['att-1.jpg', 'normal', null],
    ]);
    expect(warnings.map((w) => [w.path, w.message])).toEqual([
      [
        '.ProductAttachments[0].AttachmentDetails[0].AttachmentType',
        'AttachmentType ATX004 not kept: the media entry holds a purpose (ATX018 normal, else others), written back as ATX018 or ATX099',
      ],
      [
        '.ProductAttachments[0].AttachmentDetails[0].AttachmentLanguage',
        'AttachmentLanguage not kept: the media entry has no such field',
      ],
      [
        '.ProductAttachments[0].AttachmentDetails[0].AttachmentIssueDate',
        'AttachmentIssueDate not kept: the media entry has no such field',
      ],
      [
        '.ProductAttachments[0].AttachmentDetails[0].AttachmentExpiryDate',
        'AttachmentExpiryDate not kept: the media entry has no such field',
      ],
      [
        '.ProductAttachments[2].AttachmentDetails[0].AttachmentTypeSpecification',
        'AttachmentTypeSpecification MDX999 not kept: only a link keeps its type code',
      ],
      [
        '.ProductAttachments[3].AttachmentDetails[0].AttachmentTypeSpecification',
        'AttachmentTypeSpecification "MDX001" is no code of the schema: not kept',
      ],
    ]);
  });

  it('round trip: the specification comes back in the export; the import report names what was left out', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    const { jobId, job } = await importText(session.tenant, catalog.catalogId, file([ROHS, PICTURE, MANUAL]));
    expect(job.summary).toMatchObject({ created: 1, 'warnings.attachment_not_kept': 5 });
    const report = (await reportRows(jobId)).map((r) => r.join(' | '));
    expect(report).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/ProductAttachments\[0\]\.AttachmentDetails\[0\]\.AttachmentIssueDate .*not kept/),
      ]),
    );
    const { productId, media } = await mediaOf(catalog.catalogId, 'ATT-1');
    expect(media.map((m) => [m.fileName, m.url ?? null, m.mimeCode ?? null])).toEqual([
      ['att-1-rohs.pdf', 'https://cdn.example.com/att-1-rohs.pdf', 'MDX049'],
      ['att-1.jpg', 'https://cdn.example.com/att-1.jpg', 'MDX026'],
      ['att-1-manual.pdf', null, null],
    ]);

    // What a read returns, a write accepts: the link's xChange code goes back through UpdateLink.
    const update = await call('POST', '/api/Media/UpdateLink', {
      cookie: session.cookie,
      body: { departmentId: session.tenant.departmentId, mediaId: media[0]!.mediaId, mimeCode: 'MDX049', alt: 'RoHS' },
    });
    expect(update.status, update.text).toBe(200);
    expect(update.json.mimeCode).toBe('MDX049');
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
      ['att-1-rohs.pdf', 'ATX099', 'MDX049'],
      ['att-1.jpg', 'ATX018', 'MDX026'],
      ['att-1-sheet.pdf', 'ATX099', null],
    ]);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^media MIME code MD02 left out: no ETIM xChange AttachmentTypeSpecification/),
      ]),
    );

    // Imported again, the links keep their specification.
    const again = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, again.catalogId, text);
    expect((await mediaOf(again.catalogId, 'ATT-1')).media.map((m) => m.mimeCode ?? null)).toEqual([
      'MDX049',
      'MDX026',
      null,
    ]);
  });
});
