import { useState } from 'react';
import { Link } from 'react-router';
import { useDeleteTemplate } from '../api/mutations';
import { useTemplates } from '../api/hooks';
import type { ExportTemplate } from '../api/models';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { QueryState } from '../components/QueryState';
import { RowActions } from '../components/RowActions';
import { useI18n } from '../i18n/i18n';
import { useMay } from '../session/session';
import { TemplateDialog } from './TemplateDialog';
import { ActionsTable } from '../components/ActionsTable';

/** The company's export templates. */
export default function Templates() {
  const { t, date } = useI18n();
  const templates = useTemplates();
  // templates are part of publishing (`publish`); other roles see the list only
  const mayWrite = useMay('publish');
  const deleteTemplate = useDeleteTemplate();
  const [editing, setEditing] = useState<ExportTemplate | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ExportTemplate | null>(null);
  return (
    <>
      <nav aria-label={t('editor.breadcrumb')} className="breadcrumb">
        <Link to="/exports">{t('nav.exports')}</Link>
      </nav>
      <div className="page-head">
        <h1>{t('templates.title')}</h1>
        {mayWrite && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            {t('templates.create')}
          </button>
        )}
      </div>
      <QueryState isPending={templates.isPending} error={templates.error}>
        {templates.data?.items.length ? (
          <ActionsTable columns={[t('field.name'), t('exports.format'), t('field.language'), t('common.updatedAt')]}>
            {templates.data.items.map((tp) => (
              <tr key={tp.templateId}>
                <th scope="row">{tp.name}</th>
                <td>{tp.exportType}</td>
                <td>{tp.language}</td>
                <td>{date(tp.updatedAt)}</td>
                {mayWrite ? (
                  <RowActions
                    editLabel={t('templates.editNamed', { name: tp.name })}
                    deleteLabel={t('templates.deleteNamed', { name: tp.name })}
                    onEdit={() => setEditing(tp)}
                    onDelete={() => setDeleting(tp)}
                  />
                ) : (
                  <td />
                )}
              </tr>
            ))}
          </ActionsTable>
        ) : (
          <p className="empty">{t('templates.none')}</p>
        )}
      </QueryState>
      {editing && <TemplateDialog template={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t('templates.deleteTitle')}
        message={t('templates.deleteText', { name: deleting?.name ?? '' })}
        confirmLabel={t('common.delete')}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await deleteTemplate.mutateAsync({ templateId: deleting!.templateId });
        }}
      />
    </>
  );
}
