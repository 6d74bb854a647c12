import { useState } from 'react';
import { useChannels, useReviewInbox } from '../api/hooks';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { onPage, toggled } from '../lib/review-selection';
import { ReviewBulkBar } from './review/ReviewBulkBar';
import { ReviewEntry } from './review/ReviewEntry';

/**
 * The review inbox (docs/review.md): a channel's products in review, each with what changed
 * since its last approval, approved or rejected (with a comment) one by one or selected and
 * decided together (review/ReviewBulkBar.tsx). The server decides who may: an admin, never the
 * one who made the last change; its refusal shows on the product's row. The selection belongs
 * to the page shown: another page or channel starts with none.
 */
export default function Review() {
  const { t } = useI18n();
  const channels = (useChannels().data?.items ?? []).filter((c) => c.review.enabled);
  const [chosen, setChosen] = useState('');
  const channelId = chosen || channels[0]?.channelId || '';
  const [cursors, setCursors] = useState<string[]>(['']);
  const inbox = useReviewInbox(channelId, cursors.at(-1)!);
  const [picked, setPicked] = useState<string[]>([]);
  const [refused, setRefused] = useState<Record<string, string>>({});
  const items = inbox.data?.items ?? [];
  const page = items.map((i) => i.productId);
  // A product decided (by anyone) leaves the page, and with it the selection.
  const selection = onPage(picked, page);
  const turnPage = (next: string[]) => {
    setCursors(next);
    setPicked([]);
    setRefused({});
  };
  return (
    <>
      <div className="page-head">
        <h1>{t('review.title')}</h1>
      </div>
      <p className="muted">{t('review.intro')}</p>
      {channels.length === 0 ? (
        <p className="empty">{t('review.noChannel')}</p>
      ) : (
        <>
          <label className="inline-field">
            <span>{t('completeness.channel')}</span>
            <select
              value={channelId}
              onChange={(e) => {
                setChosen(e.target.value);
                turnPage(['']);
              }}
            >
              {channels.map((c) => (
                <option key={c.channelId} value={c.channelId}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <QueryState isPending={inbox.isPending} error={inbox.error}>
            {items.length ? (
              <>
                <ReviewBulkBar
                  channelId={channelId}
                  page={page}
                  selection={selection}
                  onSelection={setPicked}
                  onRefused={setRefused}
                />
                <ul className="review-list">
                  {items.map((item) => (
                    <ReviewEntry
                      key={item.productId}
                      channelId={channelId}
                      item={item}
                      selected={selection.includes(item.productId)}
                      onSelect={(on) => setPicked(toggled(selection, item.productId, on))}
                      refusal={refused[item.productId] ?? null}
                    />
                  ))}
                </ul>
              </>
            ) : (
              <p className="empty">{t('review.empty')}</p>
            )}
          </QueryState>
          <p>
            {cursors.length > 1 && (
              <button type="button" onClick={() => turnPage(cursors.slice(0, -1))}>
                {t('review.previous')}
              </button>
            )}
            {inbox.data?.nextCursor && (
              <button type="button" onClick={() => turnPage([...cursors, inbox.data!.nextCursor!])}>
                {t('review.next')}
              </button>
            )}
          </p>
        </>
      )}
    </>
  );
}
