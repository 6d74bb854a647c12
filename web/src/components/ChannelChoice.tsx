import { useChannels, useContentLanguages } from '../api/hooks';
import { useI18n } from '../i18n/i18n';
import { languageName } from '../lib/content-language';

/**
 * The channel and language the grid measures completeness in (docs/completeness.md): beside the
 * content-language switch, `completenessChannel` and `channelLanguage` in the address. Renders
 * nothing while the company has no channel.
 */
export function ChannelChoice({
  channelId,
  language,
  onChange,
}: {
  channelId: string | undefined;
  language: string | undefined;
  onChange: (choice: { channelId: string | undefined; language: string | undefined }) => void;
}) {
  const { t } = useI18n();
  const channels = useChannels().data?.items ?? [];
  const known = useContentLanguages().data?.available ?? [];
  if (channels.length === 0) return null;
  const channel = channels.find((c) => c.channelId === channelId);
  return (
    <>
      <label className="inline-field">
        <span>{t('completeness.channel')}</span>
        <select
          value={channel?.channelId ?? ''}
          onChange={(e) => {
            const next = channels.find((c) => c.channelId === e.target.value);
            onChange({ channelId: next?.channelId, language: next?.languages[0] });
          }}
        >
          <option value="">{t('completeness.noChannel')}</option>
          {channels.map((c) => (
            <option key={c.channelId} value={c.channelId}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      {channel && channel.languages.length > 1 && (
        <label className="inline-field">
          <span>{t('completeness.channelLanguage')}</span>
          <select
            value={language ?? channel.languages[0]}
            onChange={(e) => onChange({ channelId: channel.channelId, language: e.target.value })}
          >
            {channel.languages.map((code) => (
              <option key={code} value={code}>
                {languageName(code, known)}
              </option>
            ))}
          </select>
        </label>
      )}
    </>
  );
}
