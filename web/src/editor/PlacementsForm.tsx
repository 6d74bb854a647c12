import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiGet } from '../api/client';
import { useUpdateProduct } from '../api/mutations';
import { describeError } from '../api/errors';
import { keys } from '../api/keys';
import type { CategoryTreeNode, ProductDetail } from '../api/models';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { placementsSave } from '../lib/category-scope';
import { useSession } from '../session/session';

/**
 * The categories a product is placed in, as a checkbox tree of its catalog (UpdateProduct
 * categoryIds). A scoped member's tree holds the path above their part as context
 * (`outsideScope`): named, without a box; they save the placements of their part, and a note
 * says the product's placements outside it are kept (by the API, unnamed here).
 */
export function PlacementsForm({ product }: { product: ProductDetail }) {
  const { t } = useI18n();
  const { departmentId, account } = useSession();
  const updateProduct = useUpdateProduct();
  const announce = useAnnounce();
  const [chosen, setChosen] = useState(() => new Set(product.categoryIds));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const tree = useQuery({
    queryKey: keys.categoryTree(product.catalogId),
    queryFn: () => apiGet('Catalog/GetCategoryTree', { catalogId: product.catalogId }),
  });

  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };
  // a scoped member sends their part's placements; the API keeps the others
  const placements = placementsSave(account, product, chosen, tree.data?.items ?? []);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await updateProduct.mutateAsync({
        departmentId,
        catalogId: product.catalogId,
        productId: product.productId,
        categoryIds: placements.categoryIds,
      });
      announce(t('form.saved'));
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  };
  const render = (nodes: CategoryTreeNode[]) => (
    <ul className="check-tree">
      {nodes.map((n) => (
        <li key={n.categoryId}>
          {n.outsideScope ? (
            <span className="muted">{n.name}</span>
          ) : (
            <label className="check-field">
              <input type="checkbox" checked={chosen.has(n.categoryId)} onChange={() => toggle(n.categoryId)} />
              <span>{n.name}</span>
            </label>
          )}
          {n.children?.length > 0 && render(n.children)}
        </li>
      ))}
    </ul>
  );
  return (
    <QueryState isPending={tree.isPending} error={tree.error}>
      <fieldset className="plain-fieldset">
        <legend>{t('placements.legend', { count: placements.categoryIds.length })}</legend>
        {tree.data?.items.length ? render(tree.data.items) : <p className="empty">{t('placements.noCategories')}</p>}
      </fieldset>
      {placements.kept > 0 && <p className="notice">{t('placements.outside', { count: placements.kept })}</p>}
      <ErrorText message={error} />
      <div className="form-actions">
        <button type="button" className="primary" onClick={() => void save()} disabled={busy}>
          {busy ? t('common.working') : t('common.save')}
        </button>
      </div>
    </QueryState>
  );
}
