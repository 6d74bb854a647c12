import type { ExportWarnings } from '../export-warnings';
import type { ProductView } from '../bmecat/product-view';
import { orderUnit } from '../bmecat/fields';
import type { XChangePlan } from './xchange-plan';
import { roundDecimal } from '../../kernel/decimal';
import { RELATION_TYPE, XCHANGE_PRICE, XCHANGE_UNITS } from './xchange-codes';
import { priceListEntries } from './xchange-pricing';

type Json = Record<string, unknown>;

/** ProductStatus / ItemStatus of a stored status. */
export const XCHANGE_STATUS = { active: 'ACTIVE', draft: 'PRE-LAUNCH', discontinued: 'OBSOLETE' } as const;

/**
 * The `Pricing` entries of a trade item: its price list (xchange-pricing.ts), or, for a product
 * that has only its `price` (or whose list xChange can say nothing of), that price in the
 * catalog's currency (never a price whose row names another currency: that one is reported): xChange's GrossListPrice (list price before discounts, without VAT), or
 * NetPrice when the template's price type is a customer price. A product without price is
 * "price on request".
 */
export function pricing(plan: XChangePlan, view: ProductView, unit: string, w: ExportWarnings): Json[] {
  const quantity = String(view.priceQuantity && view.priceQuantity > 0 ? Math.min(view.priceQuantity, 99999) : 1);
  const listed = view.prices.length > 0 ? priceListEntries(plan, view, unit, quantity, w) : [];
  if (listed.length > 0) return listed;
  // A price in another currency than the file's was reported by priceListEntries: never written as the file's.
  const foreign = view.priceCurrency !== null && view.priceCurrency.toUpperCase() !== plan.currency.toUpperCase();
  if (!view.price || foreign) return [{ PriceUnit: unit, PriceQuantity: quantity, PriceOnRequest: true }];
  // xChange's price pattern has 4 decimals: a longer amount is rounded (half up, as text), reported.
  const price = roundDecimal(view.price, 4);
  if (price !== view.price)
    w.add('price with more than 4 decimals: rounded half up to 4 (ETIM xChange allows 4)', view.subject);
  if (!XCHANGE_PRICE.test(price)) {
    w.add('price with more than 11 digits: written as price on request', view.subject);
    return [{ PriceUnit: unit, PriceQuantity: quantity, PriceOnRequest: true }];
  }
  const field = plan.priceType.startsWith('net_customer') ? 'NetPrice' : 'GrossListPrice';
  return [{ PriceUnit: unit, PriceQuantity: quantity, [field]: price }];
}

/**
 * A product's references by SKU as the trade item's `ItemRelations`: the target by its SKU
 * (RelatedSupplierItemNumber), which the import reads back exactly. References by manufacturer
 * number (read from a ProductRelation) go back to `ProductRelations` (productRelations).
 * RelatedItemQuantity is required (V2.0 schema, integer from 1): a reference without quantity
 * is written with 1 and reported, so the import reads it back with quantity 1. What
 * ItemRelations cannot say is reported: diff_orderunit (written as OTHER), a description, the
 * target's catalog. (A ProductRelation may leave its quantity out: references by manufacturer
 * number keep "no quantity", productRelations.)
 */
export function itemRelations(view: ProductView, w: ExportWarnings): Json[] {
  return view.references
    .filter((r) => r.mpn === undefined)
    .map((r) => {
      if (r.quantity === null)
        w.add(
          'reference without quantity written with RelatedItemQuantity 1: ETIM xChange ItemRelations require one',
          view.subject,
        );
      return {
        RelatedSupplierItemNumber: r.pid.slice(0, 35),
        RelationType: relationType(r, view, w),
        RelatedItemQuantity: r.quantity ?? 1,
      };
    });
}

/**
 * A product's references by manufacturer number as the Product's `ProductRelations`, one entry
 * per reference in their order, the target by RelatedManufacturerProductNumber as it was read
 * (resolved or pending alike), so that the import reads each back as the same reference.
 */
export function productRelations(view: ProductView, w: ExportWarnings): Json[] {
  return view.references.flatMap((r) =>
    r.mpn === undefined
      ? []
      : [
          {
            RelationType: relationType(r, view, w),
            RelatedProducts: [
              {
                RelatedManufacturerProductNumber: r.mpn.slice(0, 35),
                ...(r.quantity !== null ? { RelatedProductQuantity: r.quantity } : {}),
              },
            ],
          },
        ],
  );
}

function relationType(r: ProductView['references'][number], view: ProductView, w: ExportWarnings): string {
  const type = RELATION_TYPE[r.type];
  if (!type) w.add(`reference type ${r.type} written as OTHER: ETIM xChange has no such relation`, view.subject);
  if (r.descr)
    w.add('reference description (REFERENCE_DESCR) left out: ETIM xChange relations have none', view.subject);
  if (r.targetCatalog) w.add("reference's target catalog left out: ETIM xChange relations have none", view.subject);
  return type ?? 'OTHER';
}

/** An order quantity with xChange's at most 4 decimals (rounded, reported); 1 when the product has none. */
function quantity(value: string | null, name: string, view: ProductView, w: ExportWarnings): string {
  if (value === null) return '1';
  const rounded = roundDecimal(value, 4);
  if (rounded !== value) w.add(`${name} ${value} rounded to ${rounded}: ETIM xChange has 4 decimals`, view.subject);
  return rounded;
}

/**
 * UseUnit and UseUnitConversionFactor: the product's content unit and content per order unit
 * (a BOX of 6 C62), written when it has either; a content unit the schema does not list is left
 * out, reported.
 */
function contentOf(view: ProductView, unit: string, w: ExportWarnings): Json {
  if (view.contentUnit === null && view.contentPerUnit === null) return {};
  let use = view.contentUnit ?? unit;
  if (!XCHANGE_UNITS.has(use)) {
    w.add(`content unit ${use} is not in the schema's unit list: UseUnit written as the order unit`, view.subject);
    use = unit;
  }
  return { UseUnit: use, UseUnitConversionFactor: quantity(view.contentPerUnit, 'UseUnitConversionFactor', view, w) };
}

/**
 * The one TradeItem of a product: the SKU is the SupplierItemNumber, the order unit the
 * product's unit (C62 when the schema does not list it), its minimum, step and content
 * (UseUnit) from the product's order details, 1 where it has none. Its
 * ItemDescriptions repeat the product's minimal description in each language it has one.
 */
export function tradeItem(plan: XChangePlan, view: ProductView, descriptions: Json[], w: ExportWarnings): Json {
  const unit = orderUnit(view, XCHANGE_UNITS, w);
  const gtin = view.gtin && /^[0-9]{8,14}$/.test(view.gtin) ? [view.gtin] : undefined;
  return {
    ItemIdentification: {
      SupplierItemNumber: view.pid,
      ManufacturerItemNumber: view.manufacturerPid?.slice(0, 35) || undefined,
      ItemGtin: gtin,
    },
    ItemDetails: {
      ItemStatus: XCHANGE_STATUS[view.status],
      ItemDescriptions: descriptions.map((d) => ({
        DescriptionLanguage: d.DescriptionLanguage,
        MinimalItemDescription: d.MinimalProductDescription,
      })),
    },
    ItemRelations: view.references.some((r) => r.mpn === undefined) ? itemRelations(view, w) : undefined,
    Ordering: {
      OrderUnit: unit,
      MinimumOrderQuantity: quantity(view.quantityMin, 'MinimumOrderQuantity', view, w),
      OrderStepSize: quantity(view.quantityInterval, 'OrderStepSize', view, w),
      ...contentOf(view, unit, w),
      StandardOrderLeadTime: view.deliveryTimeDays ?? undefined,
    },
    Pricing: pricing(plan, view, unit, w),
  };
}
