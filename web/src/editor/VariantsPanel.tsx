import { useState } from 'react';
import { Link } from 'react-router';
import { useDeleteProduct, useRefreshProduct, useSetValue } from '../api/mutations';
import type { Product, ProductDetail } from '../api/models';
import { useAnnounce } from '../components/Announcer';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useI18n } from '../i18n/i18n';
import type { MessageKey } from '../i18n/de';
import type { ValueKind } from '../lib/values';
import { NewProductDialog } from '../pages/products/NewProductDialog';
import { InlineCell } from '../pages/products/InlineCell';
import { useSession } from '../session/session';
import { ActionsTable } from '../components/ActionsTable';

const COLUMNS: { field: 'name' | 'gtin' | 'price' | 'status'; label: MessageKey; kind: ValueKind }[] = [
  { field: 'name', label: 'field.name', kind: 'text' },
  { field: 'gtin', label: 'field.gtin', kind: 'text' },
  { field: 'price', label: 'field.price', kind: 'decimal' },
  { field: 'status', label: 'field.status', kind: 'enum' },
];

/** Variants of a master: edited in place, added with their own SKU, deleted after a confirmation. */
export function VariantsPanel({ product }: { product: ProductDetail }) {
  const { t } = useI18n();
  const { departmentId } = useSession();
  const refreshProduct = useRefreshProduct();
  const deleteProduct = useDeleteProduct();
  const saveValue = useSetValue().mutateAsync;
  const announce = useAnnounce();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const refresh = () => refreshProduct(product.productId);

  return (
    <section aria-label={t('editor.tab.variants', { count: product.variants.length })}>
      <div className="toolbar">
        <button type="button" className="primary" onClick={() => setAdding(true)}>
          {t('variants.add')}
        </button>
      </div>
      {product.variants.length === 0 ? (
        <p className="empty">{t('variants.none')}</p>
      ) : (
        <ActionsTable columns={[t('field.sku'), ...COLUMNS.map((c) => t(c.label))]}>
          {product.variants.map((v) => (
            <tr key={v.productId}>
              <th scope="row">
                <Link to={`/products/${v.productId}`}>{v.sku}</Link>
              </th>
              {COLUMNS.map((c) => (
                <td key={c.field}>
                  <InlineCell
                    elementId={v.productId}
                    field={c.field}
                    label={t(c.label)}
                    rowLabel={v.sku ?? ''}
                    value={v[c.field] === null ? null : String(v[c.field])}
                    kind={c.kind}
                    setValue={saveValue}
                    onSaved={() => void refresh()}
                  />
                </td>
              ))}
              <td className="actions">
                <button
                  type="button"
                  className="danger-quiet"
                  onClick={() => setDeleting(v)}
                  aria-label={t('variants.deleteNamed', { sku: v.sku ?? '' })}
                >
                  {t('common.delete')}
                </button>
              </td>
            </tr>
          ))}
        </ActionsTable>
      )}
      {adding && (
        <NewProductDialog
          catalogId={product.catalogId}
          parentId={product.productId}
          onClose={() => setAdding(false)}
          onCreated={(v) => {
            announce(t('variants.created', { sku: v.sku ?? '' }));
            void refresh();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('variants.deleteTitle')}
        message={t('variants.deleteText', { sku: deleting?.sku ?? '', master: product.sku ?? '' })}
        confirmLabel={t('common.delete')}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await deleteProduct.mutateAsync({
            departmentId,
            productId: deleting!.productId,
            catalogId: product.catalogId,
            masterId: product.productId,
          });
          announce(t('variants.deleted', { sku: deleting!.sku ?? '' }));
        }}
      />
    </section>
  );
}
