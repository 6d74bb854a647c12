type Json = Record<string, any>;

/** A value that says something: not absent, empty, `false` or an empty list or object. */
function says(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.some(says);
  if (typeof value === 'object') return Object.values(value).some(says);
  return true;
}

const isOne = (value: unknown) => Number(String(value).trim().replace(',', '.')) === 1;
const objectOf = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? value : {});
const listOf = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((x) => x && typeof x === 'object') : [];

/** The parts of an xChange Product a product has no field for, by where they are (docs/import.md). */
const PRODUCT = ['Legislation', 'LcaEnvironmental', 'ProductCountrySpecificFields'];
const IDENTIFICATION = [
  'BrandName',
  'BrandDetails',
  'CountryOfOrigin',
  'CustomsCommodityCode',
  'FactorCustomsCommodityCode',
  'ManufacturerIdGln',
  'ManufacturerShortname',
  'ProductAnnouncementDate',
  'ProductValidityDate',
  'ProductObsolescenceDate',
];
const DETAILS = ['ProductType', 'CustomisableProduct', 'HasSerialNumber', 'WarrantyBusiness', 'WarrantyConsumer'];
const DESCRIPTIONS = [
  'ProductMarketingText',
  'ProductSpecificationText',
  'ProductApplicationInstructions',
  'ProductPageUrl',
];
const TRADE_ITEM = ['ItemLogisticDetails', 'PackagingUnit'];
const ITEM_IDENTIFICATION = [
  'DiscountGroupId',
  'DiscountGroupDescription',
  'BonusGroupId',
  'ItemValidityDate',
  'ItemObsolescenceDate',
];
const ITEM_DETAILS = ['ItemCondition', 'StockItem'];
/** Quantities a product holds only as 1 (the others are its order details: xchange-records.ts). */
const ORDERING_ONE = ['SingleUseUnitQuantity'];

/**
 * What one record of an xChange Product (the product and its trade item) carries that no field
 * of a product stores, named for a `details_not_kept` warning: legislation, LCA and
 * country-specific blocks, brand, customs and dates, the further description texts (counted over
 * the languages: `ProductMarketingText (2)`), logistics and packaging, discount groups and a
 * SingleUseUnitQuantity other than 1 (issue 32: the V2.0 sample's were dropped unreported; the
 * minimum, step, use unit and its factor are a product's order details since migration 0091). What the service's own xChange export writes is never named, so its
 * file reads back without the warning.
 */
export function xchangeUnkept(product: Json, item: Json | undefined): string[] {
  const named = new Map<string, number>();
  const add = (name: string, n = 1) => named.set(name, (named.get(name) ?? 0) + n);
  const present = (owner: Json, names: string[]) => {
    for (const name of names) if (says(owner[name])) add(name);
  };
  present(product, PRODUCT);
  present(objectOf(product.ProductIdentification), IDENTIFICATION);
  const details = objectOf(product.ProductDetails);
  present(details, DETAILS);
  for (const text of listOf(details.ProductDescriptions))
    for (const name of DESCRIPTIONS) if (says(text[name])) add(name);
  if (item) {
    present(item, TRADE_ITEM);
    present(objectOf(item.ItemIdentification), ITEM_IDENTIFICATION);
    present(objectOf(item.ItemDetails), ITEM_DETAILS);
    const ordering = objectOf(item.Ordering);
    for (const name of ORDERING_ONE)
      if (says(ordering[name]) && !isOne(ordering[name])) add(`${name} ${ordering[name]}`);
  }
  return [...named].map(([name, n]) => (n > 1 ? `${name} (${n})` : name));
}
