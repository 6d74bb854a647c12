import { describe, expect, it } from 'vitest';
import { setValue } from '../src/catalog/values';
import { createClassification } from '../src/classification/links';
import { addMediaLink } from '../src/media/media-links';
import { catalogData } from './helpers/catalog-canonical';
import { exportedText } from './helpers/export-fixtures';
import { asActor, db, makeAttribute, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { importDeps, importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';

type Session = Awaited<ReturnType<typeof makeSession>>;

const exportText = (session: Session, catalogId: string, exportType: string) =>
  exportedText(session.tenant, catalogId, exportType);

/**
 * A master with every field a BMEcat export lets a variant inherit (texts in two languages,
 * manufacturer, unit, price quantity, delivery time, an attribute value, a classification,
 * a media link), a variant that inherits all of it, and one with values of its own.
 */
async function inheritingCatalog(session: Session, languages: string[], etim: boolean) {
  const { tenant } = session;
  const actor = asActor(tenant);
  const { catalogId } = await makeCatalog(tenant, { name: 'Erben', language: 'deu', languages });
  const english = (text: Record<string, string>) => (languages.includes('eng') ? { translations: { eng: text } } : {});
  const colour = await makeAttribute(tenant, { code: `farbe_${tenant.companyId.slice(-6)}`, type: 'text' });
  const master = await makeProduct(tenant, catalogId, {
    sku: 'M-1',
    name: 'Schraubendreher',
    description: 'Schlitz, 5,5 mm',
    keywords: 'Schlitz, Dreher',
    manufacturerName: 'Wera',
    unit: 'C62',
    priceQuantity: 1,
    deliveryTimeDays: 4,
    price: '6.20',
    ...english({ name: 'Screwdriver', description: 'Slotted, 5.5 mm' }),
  });
  const set = (elementId: string, field: string, value: string) =>
    setValue(db(), actor, { departmentId: tenant.departmentId, elementId, field, value });
  await set(master.productId, colour.code, 'schwarz');
  await createClassification(db(), actor, {
    elementId: master.productId,
    name: 'ETIM-9.0 EC000042',
    classificationGroups: 1,
    classes: [{ group: 'ETIM', code: 'EC000042' }],
    features: [{ group: 'ETIM', code: 'EF000008', value: '230' }],
  });
  await addMediaLink(db(), actor, {
    departmentId: tenant.departmentId,
    elementId: master.productId,
    url: 'https://cdn.example.com/img/dreher.jpg',
    purpose: 'normal',
    ...(etim ? { mimeCode: 'MD01' } : {}),
    description: 'Dreher',
  });
  // Inherits everything: no name, unit, values, classification or media of its own.
  await makeProduct(tenant, catalogId, { sku: 'M-1-A', parentId: master.productId, name: null, gtin: '4006381333948' });
  // Its own name, unit, attribute value, classification and link.
  const own = await makeProduct(tenant, catalogId, {
    sku: 'M-1-B',
    parentId: master.productId,
    name: 'Schraubendreher lang',
    unit: 'PR',
    ...english({ name: 'Screwdriver, long' }),
  });
  await set(own.productId, colour.code, 'rot');
  await createClassification(db(), actor, {
    elementId: own.productId,
    name: 'ETIM-9.0 EC000042',
    classificationGroups: 1,
    classes: [{ group: 'ETIM', code: 'EC000042' }],
    features: [{ group: 'ETIM', code: 'EF000008', value: '400' }],
  });
  await addMediaLink(db(), actor, {
    departmentId: tenant.departmentId,
    elementId: own.productId,
    url: 'https://cdn.example.com/img/dreher-lang.jpg',
    purpose: 'normal',
    ...(etim ? { mimeCode: 'MD01' } : {}),
  });
  return catalogId;
}

async function importInto(session: Session, text: string, batchSize: number, languages: string[]) {
  const { catalogId } = await makeCatalog(session.tenant, { name: 'Zurück', language: 'deu', languages });
  const jobId = await insertImportJob(session.tenant, {
    catalogId,
    fileId: await putImportFile(session.tenant, text),
  });
  await runImportToEnd(jobId, importDeps({ batchSize }));
  expect((await importJobRow(jobId)).summary).toMatchObject({ created: 3, rejected: 0 });
  return catalogId;
}

describe('a variant that inherits, through our own BMEcat export and back', () => {
  it.each([
    ['BMEcat', 500],
    ['BMEcat', 1],
    ['BMEcat12', 500],
    ['BMEcat-ETIM', 1],
  ])(
    '%s (batches of %i) gives it back inheriting, and keeps the other variant its own values',
    async (format, size) => {
      const session = await makeSession();
      // BMEcat 1.2 has one language per file; MIME codes are the ETIM profile's (2005 has no element).
      const languages = format === 'BMEcat12' ? [] : ['eng'];
      const source = await inheritingCatalog(session, languages, format === 'BMEcat-ETIM');
      const first = await catalogData(session.tenant.companyId, source);
      const exported = await exportText(session, source, format);
      // The file gives the buyer the inherited values on the variant.
      const variantA = exported.slice(exported.indexOf('M-1-A<'));
      expect(
        variantA.slice(
          0,
          variantA.indexOf('</ARTICLE>') >= 0 ? variantA.indexOf('</ARTICLE>') : variantA.indexOf('</PRODUCT>'),
        ),
      ).toContain('Schraubendreher');
      const second = await catalogData(session.tenant.companyId, await importInto(session, exported, size, languages));
      expect(second).toEqual(first);
      // biome-ignore lint/suspicious/noExplicitAny: a look into the compared data
      const [m] = first.products as any[];
      expect(
        m.variants.map((v: { product: { name: string | null; unit: string | null } }) => [
          v.product.name,
          v.product.unit,
        ]),
      ).toEqual([
        [null, null],
        ['Schraubendreher lang', 'PR'],
      ]);
    },
  );
});
