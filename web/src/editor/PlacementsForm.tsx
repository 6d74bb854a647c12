import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiGet, apiPost } from '../api/client';
import { describeError } from '../api/errors';
import { keys } from '../api/hooks';
import type { Category, ProductDetail } from '../api/types';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';

interface TreeNode extends Category {
  children: TreeNode[];
}

/** The categories a product is placed in, as a checkbox tree of its catalog (UpdateProduct categoryIds). */
export function PlacementsForm({ product }: { product: ProductDetail }) {
  const { t } = useI18n();
  const { departmentId } = useSession();
  const client = useQueryClient();
  const announce = useAnnounce();
  const [chosen, setChosen] = useState(() => new Set(product.categoryIds));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const tree = useQuery({
    queryKey: ['categoryTree', product.catalogId],
    queryFn: () => apiGet<{ items: TreeNode[] }>('Catalog/GetCategoryTree', { catalogId: product.catalogId }),
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
      await apiPost('Catalog/UpdateProduct', {
        departmentId,
        catalogId: product.catalogId,
        productId: product.productId,
        categoryIds: [...chosen],
      });
      await client.invalidateQueries({ queryKey: keys.product(product.productId) });
      announce(t('form.saved'));
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  };
  const render = (nodes: TreeNode[]) => (
    <ul className="check-tree">
      {nodes.map((n) => (
        <li key={n.categoryId}>
          <label className="check-field">
            <input type="checkbox" checked={chosen.has(n.categoryId)} onChange={() => toggle(n.categoryId)} />
            <span>{n.name}</span>
          </label>
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
      <ErrorText message={error} />
      <div className="form-actions">
        <button type="button" className="primary" onClick={() => void save()} disabled={busy}>
          {busy ? t('common.working') : t('common.save')}
        </button>
      </div>
    </QueryState>
  );
}
