import { useState } from 'react';
import { describeError } from '../api/errors';
import { useChannels } from '../api/hooks';
import { useDeleteChannel } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { RowActions } from '../components/RowActions';
import { useI18n } from '../i18n/i18n';
import { type Channel, ChannelDialog } from './ChannelDialog';
import { ActionsTable } from '../components/ActionsTable';

/**
 * Administration: the company's channels (docs/completeness.md): list, add, edit the
 * requirements, delete. Each write answers a job that recomputes the scores; the grid and the
 * overview show them as it goes.
 */
export function AdminChannels() {
  const { t } = useI18n();
  const channels = useChannels();
  const deleteChannel = useDeleteChannel();
  const announce = useAnnounce();
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Channel | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <section aria-labelledby="admin-channels">
      <h2 id="admin-channels">{t('channels.title')}</h2>
      <p className="muted">{t('channels.intro')}</p>
      <QueryState isPending={channels.isPending} error={channels.error}>
        {channels.data?.items.length ? (
          <ActionsTable columns={[t('field.name'), t('channels.languages'), t('channels.requirements')]}>
            {channels.data.items.map((c) => (
              <tr key={c.channelId}>
                <th scope="row">{c.name}</th>
                <td>{c.languages.join(', ')}</td>
                <td>{c.requirements.length}</td>
                <RowActions
                  editLabel={t('channels.edit', { name: c.name })}
                  deleteLabel={t('channels.delete', { name: c.name })}
                  onEdit={() => setEditing(c)}
                  onDelete={() => setDeleting(c)}
                />
              </tr>
            ))}
          </ActionsTable>
        ) : (
          <p className="empty">{t('channels.none')}</p>
        )}
      </QueryState>
      <ErrorText message={error} />
      <p>
        <button type="button" className="primary" onClick={() => setEditing('new')}>
          {t('channels.add')}
        </button>
      </p>
      {editing && <ChannelDialog channel={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t('channels.deleteTitle')}
        message={t('channels.deleteText', { name: deleting?.name ?? '' })}
        confirmLabel={t('common.delete')}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await deleteChannel.mutateAsync({ channelId: deleting.channelId });
            announce(t('channels.deleted', { name: deleting.name }));
            setError(null);
          } catch (err) {
            setError(describeError(err, t));
          }
        }}
      />
    </section>
  );
}
