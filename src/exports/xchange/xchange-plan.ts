import { AppError } from '../../kernel/app-error';
import type { ExportContext } from '../exporter';
import { countProductsInScope } from '../bmecat/catalog-queries';
import { makeBmecatPlan, type BmecatPlan } from '../bmecat/plan';
import { planLanguages } from '../bmecat/localized-out';
import { languageTag } from './xchange-codes';

/**
 * What an xChange export decides once and keeps in the checkpoint. It extends the BMEcat plan
 * because both formats write the same product views (SKU as identifier, inheritance from the
 * master, classification features): one set of rules for "what a product is in a file".
 */
export interface XChangePlan extends BmecatPlan {
  /** BCP 47 tags of the file's languages (`languages` of the BMEcat plan), its default first. */
  languageTags: string[];
  /** Whether attachments can be written: media URLs need MEDIA_URL_KEY and PUBLIC_BASE_URL. */
  mediaUrls: boolean;
}

export async function makeXChangePlan(ctx: ExportContext): Promise<XChangePlan> {
  // The company's own attributes have no place in xChange (only ETIM and other classifications).
  const base = { ...(await makeBmecatPlan(ctx, 'BMEcat')), includeAttributes: false };
  const languageTags = planLanguages(base).map((code) => {
    const tag = languageTag(code);
    if (!tag)
      throw new AppError(
        'bad_request',
        `xChange needs languages such as en-GB; the catalog's language "${code}" has no BCP 47 tag here`,
      );
    return tag;
  });
  if ((await countProductsInScope(ctx, base)) === 0) {
    throw new AppError('bad_request', 'an xChange file requires at least one Product, and this export selects none');
  }
  return { ...base, languageTags, mediaUrls: ctx.mediaUrl !== undefined };
}
