import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { apiGet } from '../../api/client';
import { describeError } from '../../api/errors';
import { keys } from '../../api/keys';
import type { Category, CategoryTreeNode } from '../../api/models';
import { useAddCategory, useDeleteCategory, useUpdateCategory } from '../../api/mutations';
import { useAnnounce } from '../../components/Announcer';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorText } from '../../components/ErrorText';
import { FormField } from '../../components/FormField';
import { useI18n } from '../../i18n/i18n';
import { useMay, useSession } from '../../session/session';
import { CategoryData } from './CategoryData';
import { CategoryTranslations } from './CategoryTranslations';

/** Where the category may move: every category but its own subtree; a scoped member's context categories disabled. */
function flatten(
  nodes: CategoryTreeNode[],
  skip: string,
  prefix = '',
): { id: string; label: string; disabled: boolean }[] {
  return nodes.flatMap((n) =>
    n.categoryId === skip
      ? []
      : [
          { id: n.categoryId, label: prefix + n.name, disabled: n.outsideScope === true },
          ...flatten(n.children ?? [], skip, `${prefix}${n.name} › `),
        ],
  );
}

interface Props {
  catalogId: string;
  category: Category | null;
  onChanged: (c: Category) => void;
  onMove: (categoryId: string, parentId: string | null) => Promise<void>;
  onDeleted: () => void;
  /** The member is shown only their part of the tree (lib/category-scope.ts): nothing at the top level is theirs. */
  narrowed: boolean;
}

/** What can be done with the selected category (or, with none selected, a new top-level one). */
export function CategoryDetail({ catalogId, category, onChanged, onMove, onDeleted, narrowed }: Props) {
  const { t, num } = useI18n();
  const { departmentId } = useSession();
  // categories are written with `product.write`: other roles see the category and its data only
  const mayWrite = useMay('product.write');
  const addCategory = useAddCategory();
  const updateCategory = useUpdateCategory();
  const deleteCategory = useDeleteCategory(catalogId);
  const announce = useAnnounce();
  const [name, setName] = useState(category?.name ?? '');
  const [childName, setChildName] = useState('');
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const tree = useQuery({
    queryKey: keys.categoryTree(catalogId),
    queryFn: () => apiGet('Catalog/GetCategoryTree', { catalogId }),
    enabled: Boolean(category),
  });
  const run = async (action: () => Promise<void>) => {
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(describeError(err, t));
    }
  };

  const add = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const created = await addCategory.mutateAsync({
        departmentId,
        catalogId,
        parentId: category?.categoryId ?? null,
        name: childName.trim(),
      });
      announce(t('categories.created', { name: created.name ?? '' }));
      setChildName('');
    });
  };
  const rename = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const updated = await updateCategory.mutateAsync({
        departmentId,
        catalogId,
        categoryId: category!.categoryId,
        name: name.trim(),
      });
      announce(t('categories.renamed', { name: updated.name ?? '' }));
      onChanged({ ...category!, ...updated });
    });
  };

  const addForm = (
    <form className="stack" onSubmit={add} noValidate>
      <FormField label={category ? t('categories.newChild', { name: category.name ?? '' }) : t('categories.newTop')}>
        {(p) => <input {...p} value={childName} onChange={(e) => setChildName(e.target.value)} />}
      </FormField>
      <button type="submit" disabled={!childName.trim()}>
        {t('categories.add')}
      </button>
    </form>
  );

  const count = category?.subtreeProductCount ?? category?.productCount;
  if (!category) {
    return (
      <section className="panel" aria-labelledby="detail-h">
        <h2 id="detail-h" className="h3">
          {narrowed ? t('categories.pickInScope') : t('categories.noneSelected')}
        </h2>
        {mayWrite && !narrowed && addForm}
        <ErrorText message={error} />
      </section>
    );
  }
  const summary = (
    <>
      <h2 id="detail-h" className="h3">
        {category.name}
      </h2>
      <p className="muted">
        {count !== undefined ? t('categories.productCount', { count: num(count) }) : null}{' '}
        <Link to={`/products?catalog=${catalogId}&categoryId=${category.categoryId}&subtree=true`}>
          {t('categories.showProducts')}
        </Link>
      </p>
    </>
  );
  if (!mayWrite) {
    return (
      <section className="panel stack" aria-labelledby="detail-h">
        {summary}
        <CategoryData catalogId={catalogId} category={category} readOnly />
      </section>
    );
  }
  return (
    <section className="panel stack" aria-labelledby="detail-h">
      {summary}
      <ErrorText message={error} />
      <form className="row" onSubmit={rename} noValidate>
        <FormField label={t('categories.rename')}>
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
        </FormField>
        <button type="submit" disabled={!name.trim() || name === category.name}>
          {t('common.save')}
        </button>
      </form>
      <CategoryTranslations catalogId={catalogId} category={category} />
      <CategoryData catalogId={catalogId} category={category} />
      {addForm}
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void onMove(category.categoryId, target === '' ? null : target);
        }}
      >
        <FormField label={t('categories.moveTo')}>
          {(p) => (
            <select {...p} value={target} onChange={(e) => setTarget(e.target.value)}>
              {/* a scoped member moves within their part only: no top level to offer */}
              <option value="" disabled={narrowed}>
                {narrowed ? t('categories.chooseTarget') : t('categories.topLevel')}
              </option>
              {flatten(tree.data?.items ?? [], category.categoryId).map((o) => (
                <option key={o.id} value={o.id} disabled={o.disabled}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <button type="submit" disabled={narrowed && target === ''}>
          {t('categories.move')}
        </button>
      </form>
      <div>
        <button type="button" className="danger-quiet" onClick={() => setDeleting(true)}>
          {t('categories.delete')}
        </button>
      </div>
      <ConfirmDialog
        open={deleting}
        title={t('categories.deleteTitle')}
        message={t('categories.deleteText', { name: category.name ?? '' })}
        confirmLabel={t('categories.delete')}
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          const result = await deleteCategory.mutateAsync({
            departmentId,
            categoryId: category.categoryId,
          });
          announce(t('categories.deleted', { count: num(result.deleted) }));
          onDeleted();
        }}
      />
    </section>
  );
}
