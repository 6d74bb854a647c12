import type { StoredFeature } from '../../model/feature-block-types';
import type { ExportWarnings } from '../export-warnings';
import type { GroupRow } from './catalog-queries';
import type { MediaOwner } from './dialect-parts';
import { fitted, keywordList } from './fields';
import { localizedElements, planLanguages, textIn } from './localized-out';
import { udx2005 } from './media-out';
import type { BlockForm } from './block-form';
import { featureElements } from './other-feature-blocks';
import type { BmecatPlan } from './plan';
import { el, textEl } from './xml-text';

/** GROUP_ID of a category's parent: top-level categories (and the subset's top) hang under the root. */
export function parentGroupId(plan: BmecatPlan, row: GroupRow): string {
  return row.parent_id === null || row.id === plan.categoryId ? plan.rootGroupId : row.parent_id;
}

/** KEYWORDs of a category, each language's with `lang` in a file of several languages. */
function keywords(plan: BmecatPlan, row: GroupRow, subject: string, w: ExportWarnings): string[] {
  const several = planLanguages(plan).length > 1;
  return planLanguages(plan).flatMap((language) =>
    keywordList({ subject, keywords: textIn(plan, language, row.keywords, row.translations, 'keywords') }, 50, w).map(
      (k) => textEl('KEYWORD', k, several ? { lang: language } : undefined),
    ),
  );
}

/**
 * A category's FEATUREs (docs/exports.md "Category data"): no dialect's CATALOG_STRUCTURE has a
 * place for them, so like kept UDX they are written (after the KEYWORDs, where the import reads
 * them) only with udxVerbatim, for a receiver whose schema takes them; else reported.
 */
function features(plan: BmecatPlan, row: GroupRow, form: BlockForm, subject: string, w: ExportWarnings): string {
  if (!row.features) return '';
  if (!plan.udxVerbatim) {
    w.add('category FEATUREs not written: CATALOG_STRUCTURE has no place for them in this schema', subject);
    return '';
  }
  return featureElements(JSON.parse(row.features) as StoredFeature[], form, subject, w);
}

/**
 * One category as CATALOG_STRUCTURE (the same in 1.2 and 2005; the ETIM profile has no tree):
 * its name and description once per language of the file (docs/languages.md), its media (links
 * and files) as MIME_INFO in the dialect's rules (`mime`), its kept USER_DEFINED_EXTENSIONS as
 * a product's (udx2005: only with udxVerbatim) and its KEYWORDs, in the schema's order; its
 * FEATUREs last, only with udxVerbatim (`features`).
 */
export function catalogStructure(
  mime: (owner: MediaOwner, w: ExportWarnings, plan?: BmecatPlan) => string,
  form: BlockForm,
) {
  return (plan: BmecatPlan, row: GroupRow, w: ExportWarnings): string => {
    const subject = row.name.slice(0, 40);
    const media = row.media ? (JSON.parse(row.media) as MediaOwner['media']) : [];
    return el(
      'CATALOG_STRUCTURE',
      [
        textEl('GROUP_ID', row.id),
        // GROUP_NAME is required: the file's default language falls back to the GROUP_ID.
        localizedElements(
          plan,
          'GROUP_NAME',
          planLanguages(plan).map((language, i) => ({
            language,
            text:
              fitted(textIn(plan, language, row.name, row.translations, 'name'), 50, 'GROUP_NAME', subject, w) ??
              (i === 0 ? row.id : null),
          })),
          subject,
          w,
        ),
        localizedElements(
          plan,
          'GROUP_DESCRIPTION',
          planLanguages(plan).map((language) => ({
            language,
            text: fitted(
              textIn(plan, language, row.description, row.translations, 'description'),
              250,
              'GROUP_DESCRIPTION',
              subject,
              w,
            ),
          })),
          subject,
          w,
        ),
        textEl('PARENT_ID', parentGroupId(plan, row)),
        textEl('GROUP_ORDER', row.sort_order),
        media.length > 0 ? mime({ media, subject }, w, plan) : '',
        udx2005(row.udx, plan.udxVerbatim, subject, w),
        ...keywords(plan, row, subject, w),
        features(plan, row, form, subject, w),
      ],
      { type: row.has_children ? 'node' : 'leaf' },
    );
  };
}

/** The root CATALOG_STRUCTURE (the catalog itself) that every category hangs under. */
export function rootStructure(plan: BmecatPlan, name: string | null): string {
  return el(
    'CATALOG_STRUCTURE',
    [textEl('GROUP_ID', plan.rootGroupId), textEl('GROUP_NAME', name), textEl('PARENT_ID', '0')],
    { type: 'root' },
  );
}
