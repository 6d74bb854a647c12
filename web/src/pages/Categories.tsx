import { useRef, useState } from 'react';
import { describeError } from '../api/errors';
import { useCategories } from '../api/hooks';
import { useMoveCategory } from '../api/mutations';
import type { Category } from '../api/models';
import { useAnnounce } from '../components/Announcer';
import { useCatalogChoice } from '../components/CatalogPicker';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { treeNarrowed } from '../lib/category-scope';
import { useMay, useSession } from '../session/session';
import { CategoryDetail } from './categories/CategoryDetail';
import { CategoryNode, treeKeyNav } from './categories/CategoryNode';

/** The category tree of a catalog: lazy levels, create, rename, move (drag and drop or a dialog), delete. */
export default function Categories() {
  const { t } = useI18n();
  const { departmentId, account } = useSession();
  // moving (drag and drop) is a write (`product.write`); other roles browse the tree
  const mayWrite = useMay('product.write');
  const { catalog, picker, isPending, error } = useCatalogChoice();
  const top = useCategories(catalog?.catalogId, null);
  // a member limited to category subtrees is listed those and the path above them (docs/teams.md)
  const narrowed = catalog ? treeNarrowed(account, catalog.catalogId) : false;
  const moveCategory = useMoveCategory(catalog?.catalogId);
  const announce = useAnnounce();
  const [selected, setSelected] = useState<Category | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);
  const [overTop, setOverTop] = useState(false);
  const dragged = useRef<string | null>(null);

  const move = async (categoryId: string, parentId: string | null) => {
    setMoveError(null);
    try {
      await moveCategory.mutateAsync({ departmentId, categoryId, parentId });
      announce(t('categories.moved'));
    } catch (err) {
      setMoveError(describeError(err, t));
    }
  };
  const items = top.data?.items ?? [];
  const focusId = selected?.categoryId ?? items[0]?.categoryId ?? null;

  return (
    <>
      <div className="page-head">
        <h1>{t('categories.title')}</h1>
        <div className="toolbar">{picker}</div>
      </div>
      <QueryState isPending={isPending} error={error}>
        {!catalog ? (
          <p className="empty">{t('products.noCatalog')}</p>
        ) : (
          <div className="split">
            <section className="panel tree-panel" aria-labelledby="tree-h">
              <h2 id="tree-h" className="h3">
                {t('categories.tree', { catalog: catalog.name })}
              </h2>
              <p className="muted small">{t('categories.dndHint')}</p>
              {narrowed && (
                <p id="tree-context-hint" className="muted small">
                  {t('categories.scopedHint')}
                </p>
              )}
              <ErrorText message={moveError} />
              <QueryState isPending={top.isPending} error={top.error}>
                {items.length === 0 ? (
                  <p className="empty">{narrowed ? t('categories.noneInScope') : t('categories.empty')}</p>
                ) : (
                  // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA tree pattern builds on a list (ul tree, li treeitem, ul group)
                  <ul role="tree" aria-labelledby="tree-h" className="tree" onKeyDown={treeKeyNav}>
                    {items.map((c) => (
                      <CategoryNode
                        key={c.categoryId}
                        category={c}
                        level={1}
                        selectedId={selected?.categoryId ?? null}
                        focusId={focusId}
                        onSelect={setSelected}
                        onMove={mayWrite ? (id, parent) => void move(id, parent) : undefined}
                        dragged={dragged}
                      />
                    ))}
                  </ul>
                )}
                {mayWrite && !narrowed && (
                  <p
                    className={overTop ? 'drop-top drop-over' : 'drop-top'}
                    onDragOver={(e) => {
                      if (dragged.current) {
                        e.preventDefault();
                        setOverTop(true);
                      }
                    }}
                    onDragLeave={() => setOverTop(false)}
                    onDrop={(e) => {
                      e.preventDefault();
                      setOverTop(false);
                      const id = dragged.current;
                      dragged.current = null;
                      if (id) void move(id, null);
                    }}
                  >
                    {t('categories.dropTop')}
                  </p>
                )}
              </QueryState>
            </section>
            <CategoryDetail
              key={selected?.categoryId ?? 'none'}
              catalogId={catalog.catalogId}
              category={selected}
              onChanged={(c) => setSelected(c)}
              onMove={move}
              onDeleted={() => setSelected(null)}
              narrowed={narrowed}
            />
          </div>
        )}
      </QueryState>
    </>
  );
}
