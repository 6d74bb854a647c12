import type { AggregateMedia } from '../../catalog/product-aggregate';
import type { ExportWarnings } from '../export-warnings';
import type { ExportContext } from '../exporter';
import { fitted } from '../bmecat/fields';
import type { ProductView } from '../bmecat/product-view';
import { etimClassifications, otherClassifications } from './xchange-classification';
import { ATTACHMENT_OTHER, ATTACHMENT_PICTURE } from './xchange-codes';
import type { XChangePlan } from './xchange-plan';
import { tradeItem, XCHANGE_STATUS } from './xchange-trade-item';

type Json = Record<string, unknown>;

/** The texts of a product in one language: what `ProductDescriptions` holds per language. */
export interface LocalizedTexts {
  language: string;
  name: string | null;
  description: string | null;
  keywords: string | null;
}

/**
 * `ProductDescriptions`, one entry per language. Today the model holds the catalog's language
 * only; multilingual content passes its languages here. MinimalProductDescription is required:
 * the name, else the SKU.
 */
export function productDescriptions(texts: LocalizedTexts[], view: ProductView, w: ExportWarnings): Json[] {
  return texts.map((t) => {
    const keywords = [
      ...new Set(
        (t.keywords ?? '')
          .split(/[,;\n\r]+/)
          .map((k) => k.trim().slice(0, 50))
          .filter(Boolean),
      ),
    ];
    return {
      DescriptionLanguage: t.language,
      MinimalProductDescription: fitted(t.name, 80, 'MinimalProductDescription', view.subject, w) ?? view.pid,
      UniqueMainProductDescription:
        t.name && t.name.length > 80 ? fitted(t.name, 255, 'UniqueMainProductDescription', view.subject, w) : undefined,
      FullProductDescription: fitted(t.description, 10000, 'FullProductDescription', view.subject, w) ?? undefined,
      ProductKeyword: keywords.length > 0 ? keywords : undefined,
    };
  });
}

/**
 * `ProductRelations` of a product. The model has no product references yet (another change
 * adds them); they map here, one entry per relation type with its related products. A
 * variant's link to its master is no xChange relation (each variant is its own Product).
 */
export function productRelations(_view: ProductView): Json[] {
  return [];
}

/** `ProductAttachments` from the product's media files, by signed URL; pictures are ATX018. */
async function attachments(
  ctx: ExportContext,
  media: AggregateMedia[],
  view: ProductView & { language: string },
  w: ExportWarnings,
) {
  if (media.length === 0) return undefined;
  if (!ctx.mediaUrl) {
    w.add('media files left out: attachment URLs need MEDIA_URL_KEY and PUBLIC_BASE_URL on the server', view.subject);
    return undefined;
  }
  const out: Json[] = [];
  for (const [i, m] of media.entries()) {
    out.push({
      AttachmentType: m.contentType.startsWith('image/') ? ATTACHMENT_PICTURE : ATTACHMENT_OTHER,
      AttachmentOrder: i + 1,
      AttachmentDetails: [
        {
          AttachmentFilename: m.fileName.slice(0, 100),
          AttachmentUri: await ctx.mediaUrl(m.mediaId),
          AttachmentDescription: m.description
            ? [{ Language: view.language, AttachmentDescription: m.description.slice(0, 255) }]
            : undefined,
        },
      ],
    });
  }
  return out;
}

const nonEmpty = (list: Json[] | undefined) => (list && list.length > 0 ? list : undefined);

/** One xChange `Product` with its one TradeItem, from a product view (master or variant). */
export async function xchangeProduct(
  ctx: ExportContext,
  plan: XChangePlan,
  view: ProductView & { language: string },
  w: ExportWarnings,
): Promise<Json> {
  if (!view.manufacturerName) w.add('product without manufacturer: ManufacturerName is the supplier', view.subject);
  const descriptions = productDescriptions(
    [{ language: view.language, name: view.name, description: view.description, keywords: view.keywords }],
    view,
    w,
  );
  return {
    ProductIdentification: {
      ManufacturerName: (view.manufacturerName ?? plan.supplierName).slice(0, 80),
      ManufacturerProductNumber: (view.manufacturerPid || view.pid).slice(0, 35),
      ProductGtin: view.gtin && /^[0-9]{8,14}$/.test(view.gtin) ? [view.gtin] : undefined,
    },
    ProductDetails: { ProductStatus: XCHANGE_STATUS[view.status], ProductDescriptions: descriptions },
    ProductRelations: nonEmpty(productRelations(view)),
    ProductAttachments: await attachments(ctx, view.media, view, w),
    EtimClassification: nonEmpty(etimClassifications(view.blocks, view.language, view.subject, w)),
    OtherClassifications: nonEmpty(otherClassifications(view.blocks)),
    TradeItem: [tradeItem(plan, view, descriptions[0]!.MinimalProductDescription as string, w)],
  };
}
