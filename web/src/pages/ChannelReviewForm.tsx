import { useState, type FormEvent } from 'react';
import { describeError } from '../api/errors';
import { useSetChannelReview } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { useI18n } from '../i18n/i18n';
import { reviewBodyOf, reviewDraftOf } from '../lib/review-rule-draft';
import type { Channel } from './ChannelDialog';

/**
 * Review before publishing for a saved channel (SetChannelReview, admins; docs/review.md): on
 * or off, and which changes send an approved product back to review: any change, or changes of
 * named fields and/or of the channel's languages. Its own form with its own Save, because the
 * API sets review apart from the channel: nothing else of the dialog is written with it. The
 * server's 400 names the field or language it refuses.
 */
export function ChannelReviewForm({ channel }: { channel: Channel }) {
  const { t } = useI18n();
  const announce = useAnnounce();
  const save = useSetChannelReview();
  const [draft, setDraft] = useState(() => reviewDraftOf(channel.review));
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<typeof draft>) => setDraft({ ...draft, ...patch });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await save.mutateAsync(reviewBodyOf(channel.channelId, draft));
      announce(t(draft.enabled ? 'channelReview.savedOn' : 'channelReview.savedOff', { name: channel.name }));
    } catch (err) {
      setError(describeError(err, t));
    }
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <fieldset className="plain-fieldset">
        <legend>{t('channelReview.title')}</legend>
        <p className="muted">{t('channelReview.intro')}</p>
        <label className="check-field">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          <span>{t('channelReview.enabled')}</span>
        </label>
        {draft.enabled && (
          <fieldset className="plain-fieldset">
            <legend>{t('channelReview.rule')}</legend>
            <label className="check-field">
              <input
                type="radio"
                name={`review-kind-${channel.channelId}`}
                checked={draft.kind === 'any'}
                onChange={() => set({ kind: 'any' })}
              />
              <span>{t('channelReview.any')}</span>
            </label>
            <label className="check-field">
              <input
                type="radio"
                name={`review-kind-${channel.channelId}`}
                checked={draft.kind === 'fields'}
                onChange={() => set({ kind: 'fields' })}
              />
              <span>{t('channelReview.some')}</span>
            </label>
            {draft.kind === 'fields' && (
              <>
                <label className="field">
                  <span>{t('channelReview.fields')}</span>
                  <input value={draft.fields} onChange={(e) => set({ fields: e.target.value })} />
                </label>
                <fieldset className="plain-fieldset">
                  <legend>{t('channelReview.languages')}</legend>
                  <div className="language-checks">
                    {channel.languages.map((code) => (
                      <label key={code} className="check-field">
                        <input
                          type="checkbox"
                          checked={draft.languages.includes(code)}
                          onChange={(e) =>
                            set({
                              languages: e.target.checked
                                ? [...draft.languages, code]
                                : draft.languages.filter((c) => c !== code),
                            })
                          }
                        />
                        <span>{code}</span>
                      </label>
                    ))}
                  </div>
                </fieldset>
              </>
            )}
          </fieldset>
        )}
      </fieldset>
      <ErrorText message={error} />
      <div className="form-actions">
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? t('common.working') : t('channelReview.save')}
        </button>
      </div>
    </form>
  );
}
