import { useState } from 'react';
import { describeError } from '../../api/errors';
import type { ReviewItem } from '../../api/models';
import { useApproveProducts, useRejectProducts } from '../../api/mutations';
import { useAnnounce } from '../../components/Announcer';
import { ErrorText } from '../../components/ErrorText';
import { useI18n } from '../../i18n/i18n';
import { changeLines } from '../../lib/review-changes';

/** Shown on the row as the product's own words: SKU, else name, else id. */
const itemLabel = (item: ReviewItem) => item.sku ?? item.name ?? item.productId;

/**
 * One product of the inbox: its changes since the last approval, a box to select it for a bulk
 * decision (ReviewBulkBar.tsx), and its own Approve and Reject (with a comment). `refusal` is
 * what the server said about it in the last bulk decision (e.g. the admin's own last change).
 */
export function ReviewEntry({
  channelId,
  item,
  selected,
  onSelect,
  refusal,
}: {
  channelId: string;
  item: ReviewItem;
  selected: boolean;
  onSelect: (on: boolean) => void;
  refusal: string | null;
}) {
  const { t } = useI18n();
  const announce = useAnnounce();
  const approve = useApproveProducts();
  const reject = useRejectProducts();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const label = itemLabel(item);
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
      <div className="review-head">
        <input
          type="checkbox"
          aria-label={t('review.select', { name: label })}
          checked={selected}
          onChange={(e) => onSelect(e.target.checked)}
        />
        <h2>
          {label} {item.name && item.sku ? <span className="muted">{item.name}</span> : null}
        </h2>
      </div>
      {refusal && <ErrorText message={t('review.refused', { reason: refusal })} />}
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
