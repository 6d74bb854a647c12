import { useState } from 'react';
import { describeError } from '../api/errors';
import { useChannels, useReviewInbox } from '../api/hooks';
import type { ReviewItem } from '../api/models';
import { useApproveProducts, useRejectProducts } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { changeLines } from '../lib/review-changes';

/**
 * The review inbox (docs/review.md): a channel's products in review, each with what changed
 * since its last approval, approved or rejected (with a comment) one by one. The server decides
 * who may: an admin, never the one who made the last change; its 403 shows as the row's error.
 */
export default function Review() {
  const { t } = useI18n();
  const channels = (useChannels().data?.items ?? []).filter((c) => c.review.enabled);
  const [chosen, setChosen] = useState('');
  const channelId = chosen || channels[0]?.channelId || '';
  const [cursors, setCursors] = useState<string[]>(['']);
  const inbox = useReviewInbox(channelId, cursors.at(-1)!);
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
                setCursors(['']);
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
            {inbox.data?.items.length ? (
              <ul className="review-list">
                {inbox.data.items.map((item) => (
                  <ReviewEntry key={item.productId} channelId={channelId} item={item} />
                ))}
              </ul>
            ) : (
              <p className="empty">{t('review.empty')}</p>
            )}
          </QueryState>
          <p>
            {cursors.length > 1 && (
              <button type="button" onClick={() => setCursors(cursors.slice(0, -1))}>
                {t('review.previous')}
              </button>
            )}
            {inbox.data?.nextCursor && (
              <button type="button" onClick={() => setCursors([...cursors, inbox.data!.nextCursor!])}>
                {t('review.next')}
              </button>
            )}
          </p>
        </>
      )}
    </>
  );
}

function ReviewEntry({ channelId, item }: { channelId: string; item: ReviewItem }) {
  const { t } = useI18n();
  const announce = useAnnounce();
  const approve = useApproveProducts();
  const reject = useRejectProducts();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const label = item.sku ?? item.name ?? item.productId;
  const decide = async (action: 'approve' | 'reject') => {
    try {
      const body = { channelId, productIds: [item.productId] };
      if (action === 'approve') await approve.mutateAsync(body);
      else await reject.mutateAsync({ ...body, comment });
      announce(t(action === 'approve' ? 'review.approved' : 'review.rejected', { name: label }));
      setError(null);
    } catch (err) {
      setError(describeError(err, t));
    }
  };
  const lines = changeLines(item.productId, item.changes);
  return (
    <li className="review-entry">
      <h2>
        {label} {item.name && item.sku ? <span className="muted">{item.name}</span> : null}
      </h2>
      {item.rejectionComment && (
        <p className="muted">{t('review.lastRejection', { comment: item.rejectionComment })}</p>
      )}
      {lines.length ? (
        <table className="table">
          <caption>{t('review.changes')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('review.field')}</th>
              <th scope="col">{t('review.before')}</th>
              <th scope="col">{t('review.after')}</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={`${line.variant}${line.field}`}>
                <th scope="row">{line.variant ? t('review.variantField', { field: line.field }) : line.field}</th>
                <td>{line.before}</td>
                <td>{line.after}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">{t('review.neverApproved')}</p>
      )}
      <label className="inline-field">
        <span>{t('review.comment')}</span>
        <input value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} />
      </label>
      <p>
        <button type="button" className="primary" disabled={approve.isPending} onClick={() => decide('approve')}>
          {t('review.approve')}
        </button>{' '}
        <button type="button" disabled={reject.isPending || comment.trim() === ''} onClick={() => decide('reject')}>
          {t('review.reject')}
        </button>
      </p>
      <ErrorText message={error} />
    </li>
  );
}
