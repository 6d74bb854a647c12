import { useI18n } from '../i18n/i18n';

/**
 * The Edit and Delete buttons of a table row. Their visible text is short ("Edit"); the
 * accessible names say which row they act on ("Edit catalog Kabel"), for screen readers and
 * voice control.
 */
export function RowActions({
  editLabel,
  deleteLabel,
  onEdit,
  onDelete,
}: {
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useI18n();
  return (
    <td className="actions">
      <button type="button" onClick={onEdit} aria-label={editLabel}>
        {t('common.edit')}
      </button>
      <button type="button" className="danger-quiet" onClick={onDelete} aria-label={deleteLabel}>
        {t('common.delete')}
      </button>
    </td>
  );
}
