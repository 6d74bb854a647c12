import { useState } from 'react';
import { Link } from 'react-router';
import { useDeleteCatalog } from '../api/mutations';
import { useCatalogs } from '../api/hooks';
import type { Catalog } from '../api/models';
import { useAnnounce } from '../components/Announcer';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { QueryState } from '../components/QueryState';
import { RowActions } from '../components/RowActions';
import { useI18n } from '../i18n/i18n';
import { useMay, useSession } from '../session/session';
import { CatalogDialog } from './CatalogDialog';
import { ActionsTable } from '../components/ActionsTable';

/** Catalogs of the department: list, create, edit, delete (with a confirmation naming what goes). */
export default function Catalogs() {
  const { t, num, date } = useI18n();
  const { departmentId } = useSession();
  // catalogs are written with `product.write`; other roles see the list only
  const mayWrite = useMay('product.write');
  const catalogs = useCatalogs();
  const deleteCatalog = useDeleteCatalog();
  const announce = useAnnounce();
  const [editing, setEditing] = useState<Catalog | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Catalog | null>(null);

  return (
    <>
      <div className="page-head">
        <h1>{t('catalogs.title')}</h1>
        {mayWrite && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            {t('catalogs.create')}
          </button>
        )}
      </div>
      <QueryState isPending={catalogs.isPending} error={catalogs.error}>
        {catalogs.data?.items.length ? (
          <ActionsTable
            caption={t('catalogs.title')}
            columns={[
              t('field.name'),
              t('field.catalogType'),
              t('field.catalogVersion'),
              t('field.language'),
              t('field.currency'),
              { label: t('catalogs.categories'), className: 'num' },
              { label: t('catalogs.products'), className: 'num' },
              t('common.updatedAt'),
            ]}
          >
            {catalogs.data.items.map((c) => (
              <tr key={c.catalogId}>
                <th scope="row">
                  <Link to={`/products?catalog=${c.catalogId}`}>{c.name}</Link>
                </th>
                <td>{c.catalogType ?? '–'}</td>
                <td>{c.catalogVersion ?? '–'}</td>
                {/* the default first, then the other languages the catalog publishes */}
                <td>{c.languages.join(', ')}</td>
                <td>{c.currency}</td>
                <td className="num">
                  <Link
                    to={`/categories?catalog=${c.catalogId}`}
                    aria-label={t('catalogs.categoriesOf', { name: c.name, count: num(c.categoryCount) })}
                  >
                    {num(c.categoryCount)}
                  </Link>
                </td>
                <td className="num">{num(c.productCount)}</td>
                <td>{date(c.updatedAt)}</td>
                {mayWrite ? (
                  <RowActions
                    editLabel={t('catalogs.editNamed', { name: c.name })}
                    deleteLabel={t('catalogs.deleteNamed', { name: c.name })}
                    onEdit={() => setEditing(c)}
                    onDelete={() => setDeleting(c)}
                  />
                ) : (
                  <td />
                )}
              </tr>
            ))}
          </ActionsTable>
        ) : (
          <p className="empty">{t('catalogs.empty')}</p>
        )}
      </QueryState>
      {editing && <CatalogDialog catalog={editing === 'new' ? null : editing} open onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t('catalogs.deleteTitle')}
        message={
          deleting
            ? t('catalogs.deleteText', {
                name: deleting.name,
                products: num(deleting.productCount),
                categories: num(deleting.categoryCount),
              })
            : ''
        }
        confirmLabel={t('catalogs.deleteConfirm')}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await deleteCatalog.mutateAsync({ departmentId, catalogId: deleting.catalogId });
          announce(t('catalogs.deleted', { name: deleting.name }));
        }}
      />
    </>
  );
}
