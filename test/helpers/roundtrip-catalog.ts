import { env } from 'cloudflare:workers';
import { setValue } from '../../src/catalog/values';
import { setReferences } from '../../src/catalog/references/references';
import { createClassification } from '../../src/classification/links';
import { attachMedia } from '../../src/media/media';
import { asActor, db, makeAttribute, makeCatalog, makeCategory, makeProduct } from './factories';

type Tenant = { companyId: string; departmentId: string; userId: string };

/**
 * A catalog that uses every part an export writes: a three-level tree (one child created
 * before a later sibling's parent), masters with variants, typed attribute values (text,
 * number with unit, range, enum, boolean), ETIM and eCl@ss classifications with numeric,
 * range, enum and logical features, media files, prices, GTINs, keywords and statuses.
 */
export async function roundTripCatalog(tenant: Tenant, name: string) {
  const catalog = await makeCatalog(tenant, { name, catalogVersion: '2.1' });
  const c = catalog.catalogId;
  const top = await makeCategory(tenant, c, {
    name: 'Installation',
    description: 'Alles für die Installation',
    sortOrder: 1,
  });
  const prot = await makeCategory(tenant, c, { name: 'Schutzgeräte', parentId: top.categoryId, sortOrder: 2 });
  const cable = await makeCategory(tenant, c, { name: 'Kabel & Leitungen', sortOrder: 3 });
  const mcb = await makeCategory(tenant, c, { name: 'LS-Schalter', parentId: prot.categoryId });
  await makeCategory(tenant, c, { name: 'Leer', parentId: cable.categoryId });

  const suffix = tenant.companyId.slice(-6);
  const colour = await makeAttribute(tenant, { code: `farbe_${suffix}`, type: 'enum', enumValues: ['grau', 'weiss'] });
  const weight = await makeAttribute(tenant, { code: `gewicht_${suffix}`, type: 'number', unit: 'kg' });
  const temp = await makeAttribute(tenant, { code: `temp_${suffix}`, type: 'range', unit: 'CEL' });
  const note = await makeAttribute(tenant, { code: `hinweis_${suffix}`, type: 'text' });
  const outdoor = await makeAttribute(tenant, { code: `aussen_${suffix}`, type: 'boolean' });

  const set = (elementId: string, field: string, value: string) =>
    setValue(db(), asActor(tenant), { departmentId: tenant.departmentId, elementId, field, value });
  const ls = await makeProduct(tenant, c, {
    sku: 'LS-B16',
    name: 'LS-Schalter B16',
    description: 'Zeile 1\nZeile 2 mit "Zitat", Komma & <Tag>',
    gtin: '4006381333931',
    manufacturerName: 'Eaton',
    manufacturerPid: 'FAZ-B16/1',
    unit: 'C62',
    price: '4.95',
    priceQuantity: 1,
    keywords: 'LS, Automat',
    deliveryTimeDays: 2,
    categoryIds: [mcb.categoryId, top.categoryId],
  });
  await set(ls.productId, colour.code, 'grau');
  await set(ls.productId, weight.code, '0,12');
  await set(ls.productId, temp.code, '-25..55');
  await set(ls.productId, note.code, 'für Hutschiene');
  await set(ls.productId, outdoor.code, 'false');
  await createClassification(db(), asActor(tenant), {
    elementId: ls.productId,
    name: 'MCB',
    classificationGroups: 3,
    classes: [
      { group: 'ETIM', code: 'EC000042' },
      { group: 'ECLASS', code: '27141190' },
    ],
    features: [
      { group: 'ETIM', code: 'EF000008', value: '230' },
      { group: 'ETIM', code: 'EF000001', value: '-25..55' },
      { group: 'ETIM', code: 'EF000073', value: 'EV000040' },
      { group: 'ETIM', code: 'EF000010', value: '1' },
      { group: 'ECLASS', code: 'AAA002', value: '16' },
    ],
  });
  const files = { db: db(), files: env.FILES };
  await attachMedia(files, asActor(tenant), {
    departmentId: tenant.departmentId,
    elementId: ls.productId,
    fileName: 'ls-b16.png',
    purpose: 'normal',
    contentType: 'image/png',
    bytes: new Uint8Array([137, 80, 78, 71]),
  });
  await attachMedia(files, asActor(tenant), {
    departmentId: tenant.departmentId,
    elementId: ls.productId,
    fileName: 'ls-b16.pdf',
    purpose: 'data_sheet',
    description: 'Datenblatt',
    contentType: 'application/pdf',
    bytes: new Uint8Array([37, 80, 68, 70]),
  });
  const v3 = await makeProduct(tenant, c, {
    sku: 'LS-B16-3P',
    parentId: ls.productId,
    name: 'LS-Schalter B16 3-polig',
    price: '14.90',
    status: 'discontinued',
  });
  await set(v3.productId, weight.code, '0.36');
  await makeProduct(tenant, c, { sku: 'LS-B16-2P', parentId: ls.productId, name: null, gtin: '4006381333948' });

  const nym = await makeProduct(tenant, c, {
    sku: 'NYM-3x1.5',
    name: 'NYM-J 3x1,5',
    unit: 'MTR',
    // Order details (issue 32): at least 100 m, in steps of 50 m; every format's round trip keeps them.
    quantityMin: '100',
    quantityInterval: '50',
    price: '0.89',
    status: 'draft',
    categoryIds: [cable.categoryId],
  });
  await createClassification(db(), asActor(tenant), {
    elementId: nym.productId,
    name: 'Cable',
    classificationGroups: 1,
    classes: [{ group: 'ETIM', code: 'EC000057' }],
    features: [
      { code: 'EF000003', value: '1.5' },
      { code: 'EF000139', value: 'true' },
      { code: 'EF000007', value: 'EV000081' },
    ],
  });
  await makeProduct(tenant, c, { sku: 'OHNE-ALLES', name: null });
  // References of several types, with and without quantity, one to a SKU not in the catalog (pending), one from a variant.
  const refs = (
    productId: string,
    references: { type: 'accessories' | 'sparepart' | 'similar' | 'followup'; targetSku: string; quantity?: number }[],
  ) => setReferences(db(), asActor(tenant), { departmentId: tenant.departmentId, productId, references });
  await refs(ls.productId, [
    { type: 'accessories', targetSku: 'NYM-3x1.5', quantity: 2 },
    { type: 'sparepart', targetSku: 'ERSATZ-FEHLT' },
    { type: 'similar', targetSku: 'OHNE-ALLES' },
  ]);
  await refs(v3.productId, [{ type: 'followup', targetSku: 'NYM-3x1.5', quantity: 1 }]);
  return catalog;
}
