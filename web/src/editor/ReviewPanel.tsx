import { useState } from 'react';
import { describeError } from '../api/errors';
import { useReviewState } from '../api/hooks';
import type { GetResult } from '../api/operations';
import type { ProductDetail } from '../api/models';
import { useSubmitForReview } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';

type ChannelState = GetResult<'Catalog/GetReviewState'>['channels'][number];

const STATE_KEYS = {
  draft: 'reviewState.state.draft',
  in_review: 'reviewState.state.in_review',
  approved: 'reviewState.state.approved',
} as const;

/**
 * The product's review state in each channel that reviews before publishing (GetReviewState;
 * docs/review.md), with who submitted, approved or last rejected it and the rejection's comment,
 * and "Submit for review" where it is a draft. The query is under the product's key, so a save
 * that sends an approved product back to review shows here. Review is per master: a variant
 * points to its master.
 */
export function ReviewPanel({ product }: { product: ProductDetail }) {
  const { t } = useI18n();
  const result = useReviewState(product.productId, !product.parentId);
  if (product.parentId) return <p className="empty">{t('reviewState.variant')}</p>;
  const channels = (result.data?.channels ?? []).filter((c) => c.reviewEnabled);
  return (
    <QueryState isPending={result.isPending} error={result.error}>
      {channels.length === 0 ? (
        <p className="empty">{t('reviewState.noChannels')}</p>
      ) : (
        channels.map((c) => <ChannelReview key={c.channelId} productId={product.productId} channel={c} />)
      )}
    </QueryState>
  );
}

function ChannelReview({ productId, channel }: { productId: string; channel: ChannelState }) {
  const { t, date } = useI18n();
  const announce = useAnnounce();
  const submit = useSubmitForReview();
  const [error, setError] = useState<string | null>(null);
  const send = async () => {
    setError(null);
    try {
      await submit.mutateAsync({ channelId: channel.channelId, productIds: [productId] });
      announce(t('reviewState.submitted', { channel: channel.name }));
    } catch (err) {
      setError(describeError(err, t));
    }
  };
  const headingId = `review-${channel.channelId}`;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{channel.name}</h2>
      <p>
        <strong>{t(STATE_KEYS[channel.state])}</strong>
        {channel.state === 'in_review' && channel.submittedAt && (
          <span className="muted"> {t('reviewState.since', { when: date(channel.submittedAt) })}</span>
        )}
        {channel.state === 'approved' && channel.approvedAt && (
          <span className="muted"> {t('reviewState.approvedAt', { when: date(channel.approvedAt) })}</span>
        )}
      </p>
      {channel.rejectionComment && (
        <p className="muted">{t('review.lastRejection', { comment: channel.rejectionComment })}</p>
      )}
      {channel.state === 'draft' && (
        <button type="button" className="primary" disabled={submit.isPending} onClick={send}>
          {t('reviewState.submit')}
        </button>
      )}
      <ErrorText message={error} />
    </section>
  );
}
