import type { AggregateMedia } from '../../model/product-aggregate';
import type { ExportWarnings } from '../export-warnings';
import type { ExportContext } from '../exporter';
import { fitted } from '../bmecat/fields';
import type { ProductView } from '../bmecat/product-view';
import { etimClassifications, otherClassifications, storedBlockClassifications } from './xchange-classification';
import {
  ATTACHMENT_OTHER,
  ATTACHMENT_PICTURE,
  ATTACHMENT_SPECIFICATIONS,
  ATTACHMENT_TYPES,
  languageTag,
} from './xchange-codes';
import type { XChangePlan } from './xchange-plan';
import { perLanguage, xchangeLanguages } from './xchange-languages';
import { productRelations, tradeItem, XCHANGE_STATUS } from './xchange-trade-item';

type Json = Record<string, unknown>;

const nonEmpty = <T>(list: T[] | undefined) => (list && list.length > 0 ? list : undefined);

const keywordList = (keywords: string | null) => [
  ...new Set(
    (keywords ?? '')
      .split(/[,;\n\r]+/)
      .map((k) => k.trim().slice(0, 50))
      .filter(Boolean),
  ),
];

/**
 * `ProductDescriptions`, one entry per language of the file with a name (xchange-languages.ts).
 * MinimalProductDescription is required: the default language falls back to the SKU; another
 * language without a name is left out (its description with it) and reported.
 */
export function productDescriptions(plan: XChangePlan, view: ProductView, w: ExportWarnings): Json[] {
  const texts = view.texts.slice(0, plan.languageTags.length);
  const full = texts.map((t) => fitted(t.description, 10000, 'FullProductDescription', view.subject, w));
  perLanguage(plan, full, 'FullProductDescription', view.subject, w, () => null);
  const names = texts.map((t, i) =>
    i === 0 ? (fitted(t.name, 80, 'MinimalProductDescription', view.subject, w) ?? view.pid) : t.name,
  );
  const codes = xchangeLanguages(plan);
  texts.forEach((t, i) => {
    if (i > 0 && !t.name && full[i])
      w.add(
        `FullProductDescription in ${codes[i]} left out: no ${codes[i]} name (MinimalProductDescription)`,
        view.subject,
      );
  });
  return perLanguage(plan, names, 'MinimalProductDescription', view.subject, w, (name, tag, i) => {
    const t = texts[i]!;
    const keywords = keywordList(t.keywords);
    return {
      DescriptionLanguage: tag,
      MinimalProductDescription:
        i === 0 ? name : (fitted(name, 80, 'MinimalProductDescription', view.subject, w) ?? name),
      UniqueMainProductDescription:
        t.name && t.name.length > 80 ? fitted(t.name, 255, 'UniqueMainProductDescription', view.subject, w) : undefined,
      FullProductDescription: full[i] ?? undefined,
      ProductKeyword: keywords.length > 0 ? keywords : undefined,
    };
  });
}

/**
 * `ProductAttachments` from the product's media: a link by its own URL, a stored file by signed
 * URL; pictures are ATX018. The description is written in each language of the file that has
 * one. A file reference whose file was never uploaded (an import names it, size 0) is left out
 * with a warning: AttachmentUri is required and absolute, and a URL that answers 404 until
 * someone uploads the file would be a dead link in every shop that reads the file. The import
 * reads a signed URL of our own export back as a file reference by name (xchange-media.ts).
 */
async function attachments(
  ctx: ExportContext,
  plan: XChangePlan,
  all: AggregateMedia[],
  view: ProductView,
  w: ExportWarnings,
) {
  // Links need no signing: without MEDIA_URL_KEY and PUBLIC_BASE_URL only the stored files are left out.
  const signable = ctx.mediaUrl ? all : all.filter((m) => m.url);
  if (signable.length < all.length)
    w.add('media files left out: attachment URLs need MEDIA_URL_KEY and PUBLIC_BASE_URL on the server', view.subject);
  const media = signable.filter((m) => m.url || m.size > 0);
  if (media.length < signable.length) w.add('media file not uploaded yet: left out', view.subject);
  if (media.length === 0) return undefined;
  const out: Json[] = [];
  for (const [i, m] of media.entries()) {
    out.push({
      AttachmentType: attachmentType(m, view, w),
      AttachmentTypeSpecification: specification(m, view, w),
      AttachmentOrder: i + 1,
      AttachmentDetails: [
        {
          AttachmentLanguage: nonEmpty(attachmentLanguages(m, view, w)),
          AttachmentFilename: m.fileName.slice(0, 100) || undefined,
          // A link is written as its own absolute URL: it has no stored object to sign.
          AttachmentUri: m.url ?? (await ctx.mediaUrl!(m.mediaId)),
          AttachmentDescription: nonEmpty(
            perLanguage(
              plan,
              xchangeLanguages(plan).map((code, l) => (l === 0 ? m.description : (m.descriptions?.[code] ?? null))),
              'AttachmentDescription',
              view.subject,
              w,
              (text, tag) => ({ Language: tag, AttachmentDescription: text.slice(0, 255) }),
            ),
          ),
          AttachmentIssueDate: m.attachment?.issueDate,
          AttachmentExpiryDate: m.attachment?.expiryDate,
        },
      ],
    });
  }
  return out;
}

/**
 * The AttachmentType an import kept (kernel/media-attachment.ts), else ATX018 for a picture and
 * ATX099 for any other file. A kept code the schema does not list (set through the API) is
 * written as that default, reported.
 */
function attachmentType(m: AggregateMedia, view: ProductView, w: ExportWarnings): string {
  const fallback = m.contentType.startsWith('image/') ? ATTACHMENT_PICTURE : ATTACHMENT_OTHER;
  const kept = m.attachment?.type;
  if (!kept || ATTACHMENT_TYPES.has(kept)) return kept ?? fallback;
  w.add(`AttachmentType ${kept.slice(0, 10)} is not in the ETIM xChange list: written as ${fallback}`, view.subject);
  return fallback;
}

/** The document's languages as BCP 47 tags; a language without a tag here is left out, reported. */
function attachmentLanguages(m: AggregateMedia, view: ProductView, w: ExportWarnings): string[] {
  const tags: string[] = [];
  for (const code of m.attachment?.languages ?? []) {
    const tag = languageTag(code);
    if (tag && !tags.includes(tag)) tags.push(tag);
    else if (!tag) w.add(`attachment language ${code} left out: no BCP 47 tag for it here`, view.subject);
  }
  return tags;
}

/**
 * A link's `mimeCode` as AttachmentTypeSpecification when it is a code of the schema (an
 * xChange import keeps it there); a BMEcat ETIM MIME code (MD01 ...) has no code of its own in
 * xChange's list that this service could name for sure, so it is left out and reported.
 */
function specification(m: AggregateMedia, view: ProductView, w: ExportWarnings): string | undefined {
  if (!m.mimeCode) return undefined;
  if (ATTACHMENT_SPECIFICATIONS.has(m.mimeCode)) return m.mimeCode;
  w.add(
    `media MIME code ${m.mimeCode.slice(0, 10)} left out: no ETIM xChange AttachmentTypeSpecification`,
    view.subject,
  );
  return undefined;
}

/** One xChange `Product` with its one TradeItem, from a product view (master or variant). */
export async function xchangeProduct(
  ctx: ExportContext,
  plan: XChangePlan,
  view: ProductView,
  w: ExportWarnings,
): Promise<Json> {
  if (!view.manufacturerName) w.add('product without manufacturer: ManufacturerName is the supplier', view.subject);
  const descriptions = productDescriptions(plan, view, w);
  return {
    ProductIdentification: {
      ManufacturerName: (view.manufacturerName ?? plan.supplierName).slice(0, 80),
      ManufacturerProductNumber: (view.manufacturerPid || view.pid).slice(0, 35),
      ProductGtin: view.gtin && /^[0-9]{8,14}$/.test(view.gtin) ? [view.gtin] : undefined,
    },
    ProductDetails: { ProductStatus: XCHANGE_STATUS[view.status], ProductDescriptions: descriptions },
    ProductAttachments: await attachments(ctx, plan, view.media, view, w),
    EtimClassification: nonEmpty(etimClassifications(plan, view, w)),
    OtherClassifications: nonEmpty([
      ...otherClassifications(view.blocks),
      ...storedBlockClassifications(view.otherBlocks, view.subject, w),
    ]),
    ProductRelations: nonEmpty(productRelations(view, w)),
    TradeItem: [tradeItem(plan, view, descriptions, w)],
  };
}
