import { useState } from 'react';
import { ApiError } from '../../api/client';
import { describeError } from '../../api/errors';
import { useApproveProducts, useRejectProducts } from '../../api/mutations';
import { useAnnounce } from '../../components/Announcer';
import { ErrorText } from '../../components/ErrorText';
import { useI18n } from '../../i18n/i18n';
import { allSelected, decideEach } from '../../lib/review-selection';

const refusalText = (err: unknown) => (err instanceof ApiError && err.status < 500 ? err.message : null);

/**
 * Select all of the page, then approve or reject the selected products at once (one reject
 * comment for all). Each refusal of one product (e.g. the admin's own last change) goes to its
 * row through `onRefused` while the others are decided (lib/review-selection.ts `decideEach`).
 */
export function ReviewBulkBar({
  channelId,
  page,
  selection,
  onSelection,
  onRefused,
}: {
  channelId: string;
  page: string[];
  selection: string[];
  onSelection: (ids: string[]) => void;
  onRefused: (refused: Record<string, string>) => void;
}) {
  const { t } = useI18n();
  const announce = useAnnounce();
  const approve = useApproveProducts();
  const reject = useRejectProducts();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const decide = async (action: 'approve' | 'reject') => {
    setBusy(true);
    setError(null);
    const send = (productIds: string[]) =>
      action === 'approve'
        ? approve.mutateAsync({ channelId, productIds })
        : reject.mutateAsync({ channelId, productIds, comment });
    const outcome = await decideEach(selection, send, refusalText);
    setBusy(false);
    onRefused(outcome.refused);
    // Decided and refused products leave the selection; after a failure the rest stays selected to try again.
    onSelection(outcome.error ? selection.filter((id) => !(id in outcome.refused)) : []);
    if (outcome.error) setError(describeError(outcome.error, t));
    if (outcome.decided.length > 0) {
      announce(
        t(action === 'approve' ? 'review.bulkApproved' : 'review.bulkRejected', { count: outcome.decided.length }),
      );
      if (action === 'reject') setComment('');
    }
  };
  const none = selection.length === 0;
  return (
    <div className="review-bulk">
      <label className="check-field">
        <input
          type="checkbox"
          checked={allSelected(selection, page)}
          onChange={(e) => onSelection(e.target.checked ? page : [])}
        />
        <span>{t('review.selectAll')}</span>
      </label>
      <span className="muted" aria-live="polite">
        {t('review.selected', { count: selection.length })}
      </span>
      <button type="button" className="primary" disabled={busy || none} onClick={() => decide('approve')}>
        {t('review.approveSelected')}
      </button>
      <label className="inline-field">
        <span>{t('review.bulkComment')}</span>
        <input value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} />
      </label>
      <button type="button" disabled={busy || none || comment.trim() === ''} onClick={() => decide('reject')}>
        {t('review.rejectSelected')}
      </button>
      <ErrorText message={error} />
    </div>
  );
}
