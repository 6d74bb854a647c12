import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAttributes, useContentLanguages } from '../api/hooks';
import { useCatalogChoice } from '../components/CatalogPicker';
import { ChannelChoice } from '../components/ChannelChoice';
import { ContentLanguageSwitch } from '../components/ContentLanguageSwitch';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { attributeCodesOf } from '../lib/column-choice';
import { canonical, flattenPages, queryFromSearch } from '../lib/cursor';
import { contentLanguageOf, gapLanguages, languageName } from '../lib/content-language';
import { useMay, useSession } from '../session/session';
import type { ListQuery } from '../api/models';
import { ColumnChooser } from './products/ColumnChooser';
import {
  attributeColumn,
  BUILT_IN_COLUMNS,
  COMPLETENESS_COLUMN,
  type GridColumn,
  loadColumnChoice,
  saveColumnChoice,
} from './products/columns';
import { CompletenessFilters } from './products/CompletenessFilters';
import { Filters } from './products/Filters';
import { MassEditDialog } from './products/MassEditDialog';
import { NewProductDialog } from './products/NewProductDialog';
import { productListOptions } from './products/list-query';
import { ProductGrid } from './products/ProductGrid';

/** Find, filter, sort and fix products of one catalog; select some for a mass edit. */
export default function Products() {
  const { t, num } = useI18n();
  const { catalog, isPending, error, picker } = useCatalogChoice();
  const [params, setParams] = useSearchParams();
  const attributes = useAttributes();
  const [columnIds, setColumnIds] = useState<string[]>(loadColumnChoice);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [massEdit, setMassEdit] = useState<'selection' | 'filter' | null>(null);
  const [creating, setCreating] = useState(false);

  const known = useContentLanguages().data?.available;
  const { account } = useSession();
  // new products and mass edits need `product.write` (a translator writes texts in the editor)
  const mayWrite = useMay('product.write');
  const query = useMemo(() => {
    const parsed = queryFromSearch(params, catalog?.catalogId ?? '');
    // Texts in a content language the catalog publishes other than its default; else the default (no parameter).
    const language = catalog ? contentLanguageOf(parsed.language, catalog) : undefined;
    return { ...parsed, language: catalog && language !== catalog.language ? language : undefined };
  }, [params, catalog]);
  const translation = useMemo(
    () => (query.language ? { code: query.language, name: languageName(query.language, known ?? []) } : undefined),
    [query.language, known],
  );
  // "Translation missing in" offers a translator only the languages of their scope.
  const filterLanguages = useMemo(
    () =>
      catalog
        ? gapLanguages(catalog, account.languages).map((code) => ({ code, name: languageName(code, known ?? []) }))
        : [],
    [catalog, known, account.languages],
  );
  // The chosen attribute columns' values come with each page (one request per page, not per row);
  // codes of attributes deleted since the columns were chosen are left out.
  const codes = useMemo(() => {
    const known = new Set((attributes.data?.items ?? []).map((a) => a.code));
    return attributeCodesOf(columnIds).filter((c) => known.has(c));
  }, [columnIds, attributes.data]);
  const list = useInfiniteQuery({
    ...productListOptions(query, codes),
    // the attribute list decides which codes exist; both load in parallel with the first page (boot.ts)
    enabled: Boolean(catalog) && !attributes.isPending,
  });
  const rows = useMemo(() => flattenPages(list.data?.pages, (p) => p.productId), [list.data]);

  const allColumns = useMemo(
    () => [...BUILT_IN_COLUMNS, ...(attributes.data?.items ?? []).map(attributeColumn)],
    [attributes.data],
  );
  const columns = useMemo(() => {
    const chosen = columnIds.map((id) => allColumns.find((c) => c.id === id)).filter((c) => c !== undefined);
    // the score of the chosen channel comes right after the SKU while a channel is chosen
    if (!query.completenessChannel) return chosen;
    const at = chosen.findIndex((c) => c.id === 'sku') + 1;
    return [...chosen.slice(0, at), COMPLETENESS_COLUMN, ...chosen.slice(at)];
  }, [columnIds, allColumns, query.completenessChannel]);

  // The router applies a navigation as a transition: a second filter changed before the first
  // has rendered must build on it, not on the last render's query, or it would undo it.
  const latest = useRef(query);
  // What the filter controls show: the query as last set, ahead of that transition, so a
  // checkbox ticks and a select changes when used, not once the list has rendered; the URL's
  // query replaces it when it arrives (and on back / forward).
  const [shown, setShown] = useState(query);
  useEffect(() => {
    latest.current = query;
    setShown(query);
  }, [query]);
  const update = useCallback(
    (patch: Partial<ListQuery>) => {
      const merged = { ...latest.current, ...patch };
      latest.current = merged;
      setShown(merged);
      setParams({ catalog: merged.catalogId, ...canonical(merged) });
      setSelected(new Set());
    },
    [setParams],
  );
  const onSort = (sort: NonNullable<GridColumn['sort']>) => {
    const current = query.sort ?? (query.q ? undefined : 'sku');
    update({ sort, order: current === sort && (query.order ?? 'asc') === 'asc' ? 'desc' : 'asc' });
  };
  const loadMore = useCallback(() => void list.fetchNextPage(), [list]);
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () =>
    setSelected((s) => (rows.every((r) => s.has(r.productId)) ? new Set() : new Set(rows.map((r) => r.productId))));

  return (
    <>
      <div className="page-head">
        <h1>{t('products.title')}</h1>
        <div className="toolbar">
          {picker}
          {catalog && (
            <ContentLanguageSwitch
              catalog={catalog}
              value={query.language ?? catalog.language}
              onChange={(code) => update({ language: code === catalog.language ? undefined : code })}
            />
          )}
          <ChannelChoice
            channelId={query.completenessChannel}
            language={query.channelLanguage}
            onChange={({ channelId, language }) =>
              update({
                completenessChannel: channelId,
                channelLanguage: language,
                // the filters of another channel (or of none) do not carry over
                incompleteFor: query.incompleteFor && channelId ? channelId : undefined,
                incompleteVariantsFor: query.incompleteVariantsFor && channelId ? channelId : undefined,
                missingRequirement: undefined,
                sort: query.sort === 'completeness' && !channelId ? undefined : query.sort,
              })
            }
          />
          <ColumnChooser
            all={allColumns}
            chosen={columnIds}
            onChange={(ids) => {
              setColumnIds(ids);
              saveColumnChoice(ids);
            }}
          />
          {mayWrite && (
            <button type="button" className="primary" disabled={!catalog} onClick={() => setCreating(true)}>
              {t('products.create')}
            </button>
          )}
        </div>
      </div>
      <QueryState isPending={isPending} error={error}>
        {!catalog ? (
          <p className="empty">{t('products.noCatalog')}</p>
        ) : (
          <>
            <Filters key={catalog.catalogId} query={shown} onChange={update} languages={filterLanguages} />
            {shown.completenessChannel && <CompletenessFilters query={shown} onChange={update} />}
            <div className="selection-bar" aria-live="polite">
              <span>
                {list.isSuccess &&
                  (list.hasNextPage
                    ? t('products.loadedMore', { count: num(rows.length) })
                    : t('products.count', { count: num(rows.length) }))}
                {selected.size > 0 && ` · ${t('products.selected', { count: num(selected.size) })}`}
              </span>
              {mayWrite && (
                <>
                  <button type="button" disabled={selected.size === 0} onClick={() => setMassEdit('selection')}>
                    {t('massEdit.forSelection')}
                  </button>
                  <button type="button" onClick={() => setMassEdit('filter')}>
                    {t('massEdit.forFilter')}
                  </button>
                </>
              )}
            </div>
            <QueryState isPending={list.isPending} error={list.error}>
              {rows.length === 0 ? (
                <p className="empty">{query.q || params.size > 1 ? t('products.noMatch') : t('products.empty')}</p>
              ) : (
                <ProductGrid
                  rows={rows}
                  columns={columns}
                  query={query}
                  attributeCodes={codes}
                  hasNext={Boolean(list.hasNextPage)}
                  loadingMore={list.isFetchingNextPage}
                  loadMore={loadMore}
                  selected={selected}
                  toggle={toggle}
                  toggleAll={toggleAll}
                  onSort={onSort}
                  translation={translation}
                />
              )}
            </QueryState>
            {list.isFetchNextPageError && <QueryState isPending={false} error={list.error} />}
          </>
        )}
      </QueryState>
      {catalog && massEdit && (
        <MassEditDialog
          catalogId={catalog.catalogId}
          productIds={massEdit === 'selection' ? [...selected] : undefined}
          filter={massEdit === 'filter' ? query : undefined}
          attributes={attributes.data?.items ?? []}
          onClose={() => setMassEdit(null)}
        />
      )}
      {catalog && creating && <NewProductDialog catalogId={catalog.catalogId} onClose={() => setCreating(false)} />}
    </>
  );
}
