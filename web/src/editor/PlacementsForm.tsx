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
import { placementsOutside } from '../lib/category-scope';
import { useSession } from '../session/session';

/**
 * The categories a product is placed in, as a checkbox tree of its catalog (UpdateProduct
 * categoryIds). A scoped member's tree holds the path above their part as context
 * (`outsideScope`): named, without a box.
 */
export function PlacementsForm({ product }: { product: ProductDetail }) {
  const { t } = useI18n();
  const { departmentId } = useSession();
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
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await updateProduct.mutateAsync({
        departmentId,
        catalogId: product.catalogId,
        productId: product.productId,
        categoryIds: [...chosen],
      });
      announce(t('form.saved'));
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  };
  // a scoped member's product placed also outside their part: a save would name those and be refused
  const outside = tree.data ? placementsOutside(product.categoryIds, tree.data.items) : [];
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
        <legend>{t('placements.legend', { count: chosen.size })}</legend>
        {tree.data?.items.length ? render(tree.data.items) : <p className="empty">{t('placements.noCategories')}</p>}
      </fieldset>
      {outside.length > 0 && <p className="notice">{t('placements.outside', { count: outside.length })}</p>}
      <ErrorText message={error} />
      <div className="form-actions">
        <button type="button" className="primary" onClick={() => void save()} disabled={busy || outside.length > 0}>
          {busy ? t('common.working') : t('common.save')}
        </button>
      </div>
    </QueryState>
  );
}
