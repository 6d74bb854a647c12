import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { Link } from 'react-router';
import { keys } from '../../api/keys';
import { useRefreshProduct, useSetValue } from '../../api/mutations';
import type { ListQuery, Page, Product } from '../../api/models';
import { CompletenessBadge } from '../../components/CompletenessBadge';
import { useI18n } from '../../i18n/i18n';
import { shouldLoadMore } from '../../lib/cursor';
import { LOCALIZABLE_COLUMNS, setValueField, translationField, withSavedValue, type GridColumn } from './columns';
import { InlineCell, type SaveValue } from './InlineCell';
import { PAGE_SIZE } from './list-query';

const ROW_HEIGHT = 40;

interface Props {
  rows: Product[];
  columns: GridColumn[];
  query: ListQuery;
  /** The attribute codes the list carries values of (part of its query key). */
  attributeCodes: readonly string[];
  hasNext: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  selected: Set<string>;
  toggle: (id: string) => void;
  toggleAll: () => void;
  onSort: (sort: NonNullable<GridColumn['sort']>) => void;
  /** The content language the rows' texts are in when it is not the catalog's default (code and name). */
  translation?: { code: string; name: string };
}

/**
 * The product grid: TanStack Table for the column model, TanStack Virtual so only the rows in
 * view exist in the DOM (a million-row catalog scrolls like a hundred). The next page loads
 * once the window is within a page of the end of what is loaded, so it is usually there before
 * the user scrolls to it. Attribute columns read the values that came with the page.
 */
export function ProductGrid({
  rows,
  columns,
  query,
  attributeCodes,
  hasNext,
  loadingMore,
  loadMore,
  selected,
  toggle,
  toggleAll,
  onSort,
  translation,
}: Props) {
  const { t, num } = useI18n();
  const client = useQueryClient();
  const refreshProduct = useRefreshProduct();
  // One SetValue mutation for the whole grid: a hook per cell would weigh on every render of it.
  const saveValue = useSetValue().mutateAsync;
  const scroller = useRef<HTMLDivElement>(null);

  const patchRow = useCallback(
    (productId: string, column: GridColumn, value: string) => {
      client.setQueryData<InfiniteData<Page<Product>>>(
        keys.productList(query, attributeCodes),
        (data) =>
          data && {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              items: page.items.map((p) => (p.productId === productId ? withSavedValue(p, column, value) : p)),
            })),
          },
      );
      void refreshProduct(productId);
    },
    [client, refreshProduct, query, attributeCodes],
  );

  const defs = useMemo<ColumnDef<Product>[]>(
    () =>
      columns.map((c) => ({
        id: c.id,
        size: c.width,
        header: () => c.label ?? t(c.labelKey!),
        cell: ({ row }) => (
          <Cell
            column={c}
            product={row.original}
            translation={translation}
            save={saveValue}
            onSaved={(v) => patchRow(row.original.productId, c, v)}
          />
        ),
      })),
    [columns, t, patchRow, saveValue, translation],
  );
  const table = useReactTable({
    data: rows,
    columns: defs,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    getRowId: (p) => p.productId,
  });
  const tableRows = table.getRowModel().rows;

  const virtualizer = useVirtualizer({
    count: tableRows.length + (hasNext ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (shouldLoadMore(last, tableRows.length, hasNext, loadingMore, PAGE_SIZE)) loadMore();
  }, [last, tableRows.length, hasNext, loadingMore, loadMore]);

  const width = 44 + columns.reduce((sum, c) => sum + c.width, 0);
  const currentSort = query.sort ?? (query.q ? undefined : 'sku');
  const order = query.order ?? 'asc';
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.productId));

  return (
    <div className="grid-scroller" ref={scroller} tabIndex={-1}>
      <div
        role="table"
        aria-label={t('products.gridLabel')}
        aria-rowcount={hasNext ? -1 : rows.length + 1}
        className="grid"
        style={{ width }}
      >
        <div role="rowgroup" className="grid-head">
          <div role="row" aria-rowindex={1} className="grid-row">
            <div role="columnheader" className="grid-cell check" style={{ width: 44 }}>
              <input
                type="checkbox"
                aria-label={t('grid.selectAll', { count: num(rows.length) })}
                checked={allSelected}
                onChange={toggleAll}
              />
            </div>
            {table.getHeaderGroups()[0]!.headers.map((header) => {
              const col = columns.find((c) => c.id === header.column.id)!;
              const sorted = col.sort && currentSort === col.sort;
              return (
                <div
                  role="columnheader"
                  key={header.id}
                  className="grid-cell"
                  style={{ width: col.width }}
                  aria-sort={sorted ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {col.sort ? (
                    <button type="button" className="sort-button" onClick={() => onSort(col.sort!)}>
                      {flexRender(header.column.columnDef.header, header.getContext())}
                      <span aria-hidden="true">{sorted ? (order === 'asc' ? ' ▲' : ' ▼') : ' ↕'}</span>
                    </button>
                  ) : (
                    flexRender(header.column.columnDef.header, header.getContext())
                  )}
                </div>
              );
            })}
          </div>
        </div>
        <div role="rowgroup" className="grid-body" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = tableRows[item.index];
            if (!row) {
              return (
                <div
                  role="row"
                  key="more"
                  className="grid-row loading-row"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  <div role="cell" className="grid-cell muted">
                    {t('common.loading')}
                  </div>
                </div>
              );
            }
            const p = row.original;
            return (
              <div
                role="row"
                key={row.id}
                aria-rowindex={item.index + 2}
                aria-selected={selected.has(p.productId)}
                className="grid-row"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <div role="cell" className="grid-cell check" style={{ width: 44 }}>
                  <input
                    type="checkbox"
                    aria-label={t('grid.selectRow', { sku: p.sku ?? p.productId })}
                    checked={selected.has(p.productId)}
                    onChange={() => toggle(p.productId)}
                  />
                </div>
                {row.getVisibleCells().map((cell) => (
                  <div
                    role="cell"
                    key={cell.id}
                    className="grid-cell"
                    style={{ width: columns.find((c) => c.id === cell.column.id)!.width }}
                  >
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** One cell: the SKU links to the editor, editable fields edit in place, attributes come with the page. */
function Cell({
  column,
  product,
  translation,
  save,
  onSaved,
}: {
  column: GridColumn;
  product: Product;
  translation?: { code: string; name: string };
  save: SaveValue;
  onSaved: (v: string) => void;
}) {
  const { t, date } = useI18n();
  const value = column.read(product);
  if (column.id === 'updatedAt') return <span>{date(value)}</span>;
  if (column.id === 'completeness')
    return product.completeness ? (
      <CompletenessBadge score={product.completeness.score} missing={product.completeness.missing} />
    ) : (
      <span className="muted">{t('completeness.notScored')}</span>
    );
  if (column.id === 'missingTranslations') return <MissingTranslations fields={product.missingTranslations ?? []} />;
  // A localizable column shows and writes the content language's text; the others are the same in every language.
  const field = translationField(column);
  const localized = translation && field ? translation : undefined;
  const label = column.label ?? t(column.labelKey!);
  if (column.id === 'sku') {
    return (
      <span className="sku-cell">
        <Link
          to={`/products/${product.productId}${translation ? `?language=${translation.code}` : ''}`}
          aria-label={t('grid.openProduct', { sku: product.sku ?? '' })}
        >
          {product.sku}
        </Link>
      </span>
    );
  }
  if (!column.edit) return <span>{value ?? ''}</span>;
  return (
    <InlineCell
      elementId={product.productId}
      field={setValueField(column)}
      label={localized ? `${label} · ${localized.name}` : label}
      rowLabel={product.sku ?? product.productId}
      value={value}
      kind={column.edit}
      allowed={column.attribute?.enumValues ?? undefined}
      unit={column.attribute?.unit}
      language={localized?.code}
      missing={localized && product.missingTranslations?.includes(field!) ? t('grid.translationMissing') : undefined}
      setValue={save}
      onSaved={onSaved}
    />
  );
}

/** The texts a row lacks in the shown content language, as badges (the "Missing translations" column). */
function MissingTranslations({ fields }: { fields: readonly string[] }) {
  const { t } = useI18n();
  if (!fields.length) return <span className="muted">–</span>;
  return (
    <span className="badges">
      {fields.map((f) => (
        <span key={f} className="badge badge-missing">
          {LOCALIZABLE_COLUMNS.includes(f) ? t(`field.${f as 'name'}`) : f.replace(/^values\./, '')}
        </span>
      ))}
    </span>
  );
}
