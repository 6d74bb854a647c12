import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { apiGet } from '../api/client';
import { describeError } from '../api/errors';
import { keys } from '../api/keys';
import { useRestoreVersion } from '../api/mutations';
import type { HistoryItem, ProductDetail } from '../api/models';
import { useAnnounce } from '../components/Announcer';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { flattenPages, nextCursorOf } from '../lib/cursor';
import { displayValue, pathLabel, surfaceKey } from '../lib/history';
import { useSession } from '../session/session';

const PAGE_SIZE = 20;

/**
 * The product's change history (docs/history.md): versions newest first, each with when, who,
 * through what and every field's before → after; any version but the newest can be restored.
 */
export function HistoryPanel({ product }: { product: ProductDetail }) {
  const { t, date } = useI18n();
  const { departmentId } = useSession();
  const restoreVersion = useRestoreVersion(product.catalogId);
  const announce = useAnnounce();
  const [restoring, setRestoring] = useState<HistoryItem | null>(null);
  const history = useInfiniteQuery({
    queryKey: keys.history(product.productId),
    queryFn: ({ pageParam, signal }) =>
      apiGet('Catalog/GetHistory', { elementId: product.productId, cursor: pageParam, limit: PAGE_SIZE }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursorOf,
  });
  const items = useMemo(() => flattenPages(history.data?.pages, (v) => v.versionId), [history.data]);
  const listLabel = t('history.list', { sku: product.sku ?? '' });

  const restore = async (version: HistoryItem) => {
    const result = await restoreVersion.mutateAsync({
      departmentId,
      elementId: product.productId,
      versionId: version.versionId,
    });
    const skipped = result.skipped.map((s) => s.path).join(', ');
    announce(
      [
        result.versionId ? t('history.restored', { at: date(version.at) }) : t('history.unchanged'),
        skipped ? t('history.skipped', { list: skipped }) : '',
      ]
        .filter(Boolean)
        .join(' '),
    );
  };

  return (
    <section aria-label={listLabel}>
      <QueryState isPending={history.isPending} error={history.error}>
        {items.length === 0 ? (
          <p className="empty">{t('history.none')}</p>
        ) : (
          <ol className="history" aria-label={listLabel}>
            {items.map((item, index) => (
              <HistoryEntry
                key={item.versionId}
                item={item}
                isNewest={index === 0}
                onRestore={() => setRestoring(item)}
              />
            ))}
          </ol>
        )}
        {history.hasNextPage && (
          <div className="toolbar">
            <button type="button" onClick={() => history.fetchNextPage()} disabled={history.isFetchingNextPage}>
              {history.isFetchingNextPage ? t('common.loading') : t('history.more')}
            </button>
          </div>
        )}
        <ErrorText message={history.isFetchNextPageError ? describeError(history.error, t) : null} />
      </QueryState>
      <ConfirmDialog
        open={restoring !== null}
        title={t('history.restoreTitle')}
        message={t('history.restoreText', { sku: product.sku ?? '', at: restoring ? date(restoring.at) : '' })}
        confirmLabel={t('history.restoreConfirm')}
        onClose={() => setRestoring(null)}
        onConfirm={() => (restoring ? restore(restoring) : Promise.resolve())}
      />
    </section>
  );
}

function HistoryEntry({ item, isNewest, onRestore }: { item: HistoryItem; isNewest: boolean; onRestore: () => void }) {
  const { t, date } = useI18n();
  const surface = t(surfaceKey(item)) + (item.clientName ? ` (${item.clientName})` : '');
  const when = date(item.at);
  return (
    <li className="history-entry">
      <div className="history-head">
        <strong>{t(`history.action.${item.action}`)}</strong>
        <time dateTime={item.at}>{when}</time>
        <span className="muted">{t('history.by', { user: item.user.name ?? t('history.unknownUser'), surface })}</span>
        {!isNewest && item.action !== 'delete' && (
          <button
            type="button"
            className="history-restore"
            aria-label={t('history.restoreName', { at: when })}
            onClick={onRestore}
          >
            {t('history.restore')}
          </button>
        )}
      </div>
      {item.changes.length === 0 ? (
        <p className="muted">{t('history.noFieldChanges')}</p>
      ) : (
        <table className="table history-changes">
          <caption className="visually-hidden">{t('history.changes')}</caption>
          <tbody>
            {item.changes.map((change) => {
              const label = pathLabel(change.path);
              return (
                <tr key={change.path}>
                  <th scope="row">
                    {t(label.key, label.vars)}
                    {label.language ? ` · ${label.language}` : ''}
                  </th>
                  <td>
                    <del>{displayValue(change.before)}</del>
                  </td>
                  <td aria-hidden="true">→</td>
                  <td>
                    <ins>{displayValue(change.after)}</ins>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </li>
  );
}
