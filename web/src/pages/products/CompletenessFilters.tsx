import { useState } from 'react';
import { useChannels, useCompletenessOverview } from '../../api/hooks';
import type { ListQuery } from '../../api/models';
import { useI18n } from '../../i18n/i18n';
import { IncompleteVariants } from './IncompleteVariants';

/**
 * The grid's completeness filters for the chosen channel and language (docs/completeness.md):
 * "only incomplete" (`incompleteFor`), "only with incomplete variants" (`incompleteVariantsFor`:
 * masters with a variant under 100) and "missing X" (`missingRequirement`, the requirements the
 * overview counts as missing there, most missed first; it narrows whichever of the two is on). Part of the shared product filter,
 * so a mass edit "for all filtered" selects the same products. "Incomplete variants" (not part
 * of the filter: the grid lists masters) shows the channel's incomplete variants below it.
 */
export function CompletenessFilters({
  query,
  onChange,
}: {
  query: ListQuery;
  onChange: (patch: Partial<ListQuery>) => void;
}) {
  const { t, num } = useI18n();
  const channel = useChannels().data?.items.find((c) => c.channelId === query.completenessChannel);
  const language = query.channelLanguage ?? channel?.languages[0];
  const overview = useCompletenessOverview().data?.items.find(
    (i) => i.channelId === query.completenessChannel && i.language === language,
  );
  const [variants, setVariants] = useState(false);
  if (!channel) return null;
  const incomplete = query.incompleteFor === channel.channelId;
  const withVariants = query.incompleteVariantsFor === channel.channelId;
  return (
    <fieldset className="filters completeness-filters">
      <legend>{t('completeness.filters', { channel: channel.name, language: language ?? '' })}</legend>
      <label className="check-field">
        <input
          type="checkbox"
          checked={incomplete}
          onChange={(e) =>
            onChange({
              incompleteFor: e.target.checked ? channel.channelId : undefined,
              missingRequirement: e.target.checked || withVariants ? query.missingRequirement : undefined,
            })
          }
        />
        <span>{t('completeness.onlyIncomplete')}</span>
      </label>
      <label className="check-field">
        <input
          type="checkbox"
          checked={withVariants}
          onChange={(e) =>
            onChange({
              incompleteVariantsFor: e.target.checked ? channel.channelId : undefined,
              missingRequirement: e.target.checked || incomplete ? query.missingRequirement : undefined,
            })
          }
        />
        <span>{t('completeness.withIncompleteVariants')}</span>
      </label>
      <label className="check-field">
        <input type="checkbox" checked={variants} onChange={(e) => setVariants(e.target.checked)} />
        <span>
          {t('completeness.incompleteVariants', {
            count: num(overview ? overview.incompleteVariants : 0),
          })}
        </span>
      </label>
      <label className="field">
        <span>{t('completeness.missingRequirement')}</span>
        <select
          value={query.missingRequirement ?? ''}
          onChange={(e) =>
            onChange({
              missingRequirement: e.target.value || undefined,
              // "missing X" is a kind of "incomplete for"
              incompleteFor: e.target.value && !withVariants ? channel.channelId : query.incompleteFor,
            })
          }
        >
          <option value="">{t('completeness.anyRequirement')}</option>
          {(overview?.missing ?? []).map((m) => (
            <option key={m.requirement} value={m.requirement}>
              {t('completeness.requirementCount', { requirement: m.requirement, count: num(m.products) })}
            </option>
          ))}
        </select>
      </label>
      {variants && language && (
        <IncompleteVariants channel={channel.channelId} language={language} requirement={query.missingRequirement} />
      )}
    </fieldset>
  );
}
