import { useState, type DragEvent, type KeyboardEvent } from 'react';
import { useCategories } from '../../api/hooks';
import type { Category } from '../../api/models';
import { useI18n } from '../../i18n/i18n';

interface NodeProps {
  category: Category;
  level: number;
  selectedId: string | null;
  /** The item in the tab order (roving tabindex). */
  focusId: string | null;
  onSelect: (c: Category) => void;
  /** Absent for a role that may not move categories: the item is then no drag source or drop target. */
  onMove?: (categoryId: string, parentId: string | null) => void;
  dragged: { current: string | null };
}

/**
 * One tree item. Its children load only when it is opened (lazy: a catalog's tree may be large);
 * it is a drag source and a drop target ("move below this category"). A category listed to a
 * scoped member only as the path above their part of the tree (`outsideScope`, docs/teams.md)
 * is context: open from the start so their part shows, never selected, dragged or dropped on.
 */
export function CategoryNode({ category, level, selectedId, focusId, onSelect, onMove, dragged }: NodeProps) {
  const { t, num } = useI18n();
  const context = category.outsideScope === true;
  const [open, setOpen] = useState(context);
  const select = context ? () => {} : onSelect;
  const move = context ? undefined : onMove;
  const [over, setOver] = useState(false);
  const children = useCategories(category.catalogId, category.categoryId, open);
  const items = children.data?.items;
  const leaf = items !== undefined && items.length === 0;
  const count = category.subtreeProductCount ?? category.productCount;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    e.stopPropagation();
    setOver(false);
    const id = dragged.current;
    dragged.current = null;
    if (id && id !== category.categoryId) move?.(id, category.categoryId);
  };

  return (
    <li
      role="treeitem"
      aria-level={level}
      aria-expanded={leaf ? undefined : open}
      aria-selected={selectedId === category.categoryId}
      data-id={category.categoryId}
      tabIndex={focusId === category.categoryId ? 0 : -1}
      onKeyDown={(e) => {
        if (e.target !== e.currentTarget) return;
        if (e.key === 'ArrowRight' && !open && !leaf) {
          e.preventDefault();
          setOpen(true);
        } else if (e.key === 'ArrowLeft' && open) {
          e.preventDefault();
          e.stopPropagation();
          setOpen(false);
        } else if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          select(category);
        }
      }}
      onFocus={(e) => {
        if (e.target === e.currentTarget) select(category);
      }}
      onClick={(e) => {
        e.stopPropagation();
        select(category);
        (e.currentTarget as HTMLElement).focus();
      }}
      aria-disabled={context || undefined}
      aria-describedby={context ? 'tree-context-hint' : undefined}
      // The tree item is the drag source and the drop target; the innermost item under the pointer wins.
      draggable={move !== undefined}
      onDragStart={(e) => {
        e.stopPropagation();
        if (!move) return;
        dragged.current = category.categoryId;
        e.dataTransfer.effectAllowed = 'move';
      }}
      onDragOver={(e) => {
        e.stopPropagation();
        if (move && dragged.current && dragged.current !== category.categoryId) {
          e.preventDefault();
          setOver(true);
        }
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <div className={`tree-row${over ? ' drop-over' : ''}${context ? ' context' : ''}`}>
        <span
          className="twisty"
          aria-hidden="true"
          onClick={(e) => {
            e.stopPropagation();
            if (!leaf) setOpen(!open);
          }}
        >
          {leaf ? '·' : open ? '▾' : '▸'}
        </span>
        <span className="tree-name">{category.name}</span>
        {count !== undefined && (
          <span className="count">
            <span aria-hidden="true">{num(count)}</span>
            <span className="visually-hidden">{t('categories.productCount', { count: num(count) })}</span>
          </span>
        )}
      </div>
      {open && (
        // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA tree pattern nests its levels as lists with role group, not fieldsets
        <ul role="group">
          {children.isPending && (
            <li role="none" className="muted">
              {t('common.loading')}
            </li>
          )}
          {items?.map((c) => (
            <CategoryNode
              key={c.categoryId}
              category={c}
              level={level + 1}
              selectedId={selectedId}
              focusId={focusId}
              onSelect={onSelect}
              onMove={onMove}
              dragged={dragged}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

/** Up/Down move through the visible items, Left goes to the parent, Home/End to the ends. */
export function treeKeyNav(e: KeyboardEvent<HTMLElement>) {
  const tree = e.currentTarget;
  const items = Array.from(tree.querySelectorAll<HTMLElement>('[role="treeitem"]'));
  const current = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
  if (!current) return;
  const index = items.indexOf(current);
  let next: HTMLElement | undefined;
  if (e.key === 'ArrowDown') next = items[index + 1];
  else if (e.key === 'ArrowUp') next = items[index - 1];
  else if (e.key === 'Home') next = items[0];
  else if (e.key === 'End') next = items[items.length - 1];
  else if (e.key === 'ArrowLeft' && current.getAttribute('aria-expanded') !== 'true')
    next = current.parentElement?.closest<HTMLElement>('[role="treeitem"]') ?? undefined;
  if (next) {
    e.preventDefault();
    next.focus();
  }
}
