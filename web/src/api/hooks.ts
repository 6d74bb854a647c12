import { queryOptions, useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { flattenPages, nextCursorOf } from '../lib/cursor';
import { attributesParams, CODE_SEARCH_WAIT_MS, codesInUseParams } from '../lib/shop-form';
import { apiGet, type CallOptions } from './client';
import { keys } from './keys';
import { isTerminal, type ShopKind } from './models';

/** Shared queries of several screens, typed by the operation they call (`operations.ts`). */

export function useStats() {
  return useQuery({ queryKey: keys.stats, queryFn: () => apiGet('Catalog/GetStats') });
}

/** The department's catalogs (a company has tens, not thousands: one page of 500 is all of them). */
export const catalogsQuery = (options: CallOptions = {}) =>
  queryOptions({
    queryKey: keys.catalogs,
    queryFn: () => apiGet('Catalog/GetCatalogs', { limit: 500 }, options),
  });

export function useCatalogs() {
  return useQuery(catalogsQuery());
}

/** One level of the category tree, loaded when it is opened. */
export function useCategories(catalogId: string | undefined, parentId: string | null, enabled = true) {
  return useQuery({
    queryKey: keys.categories(catalogId ?? '', parentId),
    queryFn: () => apiGet('Catalog/GetCategories', { catalogId, parentId }),
    enabled: Boolean(catalogId) && enabled,
  });
}

/** A category found by its id alone: its catalog and the path of names down to it (GetCategory). */
export function useCategoryPath(categoryId: string | undefined) {
  return useQuery({
    queryKey: keys.categoryPath(categoryId ?? ''),
    queryFn: () => apiGet('Catalog/GetCategory', { categoryId }),
    enabled: Boolean(categoryId),
    retry: false,
  });
}

/** Several categories by id with their paths (GetCategory each, cached like useCategoryPath): the access summary's names. */
export function useCategoryPaths(categoryIds: readonly string[]) {
  return useQueries({
    queries: [...new Set(categoryIds)].map((categoryId) => ({
      queryKey: keys.categoryPath(categoryId),
      queryFn: () => apiGet('Catalog/GetCategory', { categoryId }),
      retry: false,
    })),
  });
}

/** Categories of a catalog whose name contains `q` (at least 2 characters), with their paths. */
export function useCategorySearch(catalogId: string, q: string) {
  return useQuery({
    queryKey: keys.categorySearch(catalogId, q),
    queryFn: () => apiGet('Catalog/SearchCategories', { catalogId, q }),
    enabled: Boolean(catalogId) && q.length >= 2,
  });
}

export function useProduct(productId: string) {
  return useQuery({
    queryKey: keys.product(productId),
    queryFn: () => apiGet('Catalog/GetProduct', { productId }),
  });
}

/**
 * A product in a content language other than its catalog's default (texts null where missing,
 * named in `missingTranslations`), with `languages=all`'s `translations` of every other language.
 */
export function useProductIn(productId: string, language: string | null) {
  return useQuery({
    queryKey: keys.productIn(productId, language ?? ''),
    queryFn: () => apiGet('Catalog/GetProduct', { productId, language: language ?? undefined, languages: 'all' }),
    enabled: Boolean(language),
  });
}

export const attributesQuery = (options: CallOptions = {}) =>
  queryOptions({
    queryKey: keys.attributes,
    queryFn: () => apiGet('Catalog/GetAttributes', undefined, options),
    staleTime: 5 * 60_000,
  });

export function useAttributes() {
  return useQuery(attributesQuery());
}

export function useJobs(limit = 20) {
  return useQuery({
    queryKey: keys.jobList(limit),
    queryFn: () => apiGet('Job/GetJobs', { limit }),
    // while anything runs, keep the list fresh (each running job also polls GetJob itself)
    refetchInterval: (q) =>
      q.state.data?.items.some((j) => j.state === 'queued' || j.state === 'running') ? 5000 : false,
  });
}

/** One job, polled until it reaches a final state (docs/design.md section 5). */
export function useJob(jobId: string | null) {
  return useQuery({
    queryKey: keys.job(jobId ?? ''),
    queryFn: () => apiGet('Job/GetJob', { jobId }),
    enabled: Boolean(jobId),
    refetchInterval: (q) => (q.state.data && isTerminal(q.state.data.state) ? false : 1000),
  });
}

export function useTemplates() {
  return useQuery({
    queryKey: keys.templates,
    queryFn: () => apiGet('Export/GetTemplates', { limit: 500 }),
  });
}

/** The past imports of a catalog, newest first; refreshed while one of them runs. */
export function useImports(catalogId: string | undefined, limit = 20) {
  return useQuery({
    queryKey: keys.importList(catalogId ?? ''),
    queryFn: () => apiGet('Import/GetImports', { catalogId, limit }),
    enabled: Boolean(catalogId),
    refetchInterval: (q) =>
      q.state.data?.items.some((i) => i.state === 'queued' || i.state === 'running') ? 3000 : false,
  });
}

/** One import with its file's facts and report groups, polled (about once a second) until it ends. */
export function useImport(jobId: string | null) {
  return useQuery({
    queryKey: keys.importOne(jobId ?? ''),
    queryFn: () => apiGet('Import/GetImport', { jobId }),
    enabled: Boolean(jobId),
    refetchInterval: (q) => (q.state.data && isTerminal(q.state.data.state) ? false : 1000),
  });
}

/** The company's content languages (enabled, default first) and every language it can enable. */
export function useContentLanguages() {
  return useQuery({
    queryKey: keys.languages,
    queryFn: () => apiGet('Catalog/GetLanguages'),
    staleTime: 5 * 60_000,
  });
}

/** The company's channels with their languages and requirements (docs/completeness.md). */
export function useChannels() {
  return useQuery({ queryKey: keys.channels, queryFn: () => apiGet('Catalog/GetChannels'), staleTime: 60_000 });
}

/** A product's score and missing list per channel and language (refreshed with the product). */
export function useCompleteness(productId: string) {
  return useQuery({
    queryKey: keys.completenessOf(productId),
    queryFn: () => apiGet('Catalog/GetCompleteness', { productId }),
  });
}

/** Per channel and language: scored, complete, mean score and the most missed requirements (counters only). */
export function useCompletenessOverview() {
  return useQuery({ queryKey: keys.completenessOverview, queryFn: () => apiGet('Catalog/GetCompletenessOverview') });
}

/** One page of the channel's incomplete variants in a language, worst first, each with its master. */
export function useIncompleteVariants(
  channel: string,
  language: string,
  requirement: string | undefined,
  cursor: string,
) {
  return useQuery({
    queryKey: keys.incompleteVariants(channel, language, requirement ?? '', cursor),
    queryFn: () =>
      apiGet('Catalog/GetIncompleteProducts', {
        channel,
        language,
        level: 'variants',
        limit: 50,
        ...(requirement ? { requirement } : {}),
        ...(cursor ? { cursor } : {}),
      }),
  });
}

/** One point per day of the last `days` per channel and language. */
export function useCompletenessTrend(days = 30) {
  return useQuery({
    queryKey: keys.completenessTrend(days),
    queryFn: () => apiGet('Catalog/GetCompletenessTrend', { days }),
  });
}

/** A shop kind's default mapping, whether it needs a URL and its credential sets (the connection form's shop section). */
export const shopDefaultsQuery = (kind: ShopKind) =>
  queryOptions({
    queryKey: keys.shopDefaults(kind),
    queryFn: () => apiGet('Sync/GetShopDefaults', { kind }),
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useShopDefaults(kind: ShopKind | null) {
  return useQuery({ ...shopDefaultsQuery(kind ?? 'reference'), enabled: kind !== null });
}

/** Codes per GetCodesInUse page: the API's largest. */
const CODES_PAGE = 500;

/** `value` once it has rested `wait` ms: what a search box asks the server for, not every key stroke. */
export function useDebouncedValue<T>(value: T, wait: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), wait);
    return () => clearTimeout(timer);
  }, [value, wait]);
  return settled;
}

/**
 * The company's attributes as the shop mapping's attribute-code choices (GetAttributes pages of
 * 500 in code order, `loadMore` while `hasMore`), searched on the server like `useCodesInUse`:
 * `search` goes as `q` (code or name) once it rested CODE_SEARCH_WAIT_MS.
 */
export function useAttributeChoices(search = '') {
  const settled = useDebouncedValue(search.trim(), CODE_SEARCH_WAIT_MS);
  const query = useInfiniteQuery({
    queryKey: keys.attributeChoices(settled),
    queryFn: ({ pageParam, signal }) =>
      apiGet('Catalog/GetAttributes', attributesParams(settled, CODES_PAGE, pageParam), { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
  const attributes = useMemo(() => (query.data?.pages ?? []).flatMap((page) => page.items), [query.data]);
  return {
    attributes,
    codes: attributes.map((a) => a.code),
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}

/**
 * The price types or feature-block systems a catalog's products use (GetCodesInUse), as the
 * mapping editor's choices: pages of 500 in code order, the next loaded on request
 * (`loadMore`, while `hasMore`); a value beyond them can still be typed. `search` (the pick
 * list's filter text) is sent as `q` once it rested CODE_SEARCH_WAIT_MS, so the server searches
 * every code, not only the pages loaded; the last answer shows until the next arrives.
 */
export function useCodesInUse(catalogId: string, list: 'priceTypes' | 'featureSystems', search = '') {
  const settled = useDebouncedValue(search.trim(), CODE_SEARCH_WAIT_MS);
  const query = useInfiniteQuery({
    queryKey: keys.codesInUse(catalogId, list, settled),
    queryFn: ({ pageParam, signal }) =>
      apiGet('Catalog/GetCodesInUse', codesInUseParams(catalogId, list, settled, CODES_PAGE, pageParam), { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursorOf,
    enabled: catalogId !== '',
    staleTime: 60_000,
    // While a search is asked, the last answer of the same catalog and list stays (never another's).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === catalogId && previousQuery.queryKey[3] === list ? previous : undefined,
  });
  const codes = useMemo(() => flattenPages(query.data?.pages, (row) => row.code).map((row) => row.code), [query.data]);
  return {
    codes,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}

/** One page of a channel's products in review, each with its change since the last approval (docs/review.md). */
export function useReviewInbox(channelId: string, cursor: string) {
  return useQuery({
    queryKey: keys.reviewInbox(channelId, cursor),
    queryFn: () => apiGet('Catalog/GetReviewInbox', { channelId, limit: 20, ...(cursor ? { cursor } : {}) }),
    enabled: channelId !== '',
  });
}

/** A master's review state in every review-on channel (docs/review.md); a variant has none (`enabled` false). */
export function useReviewState(productId: string, enabled = true) {
  return useQuery({
    queryKey: keys.reviewStateOf(productId),
    queryFn: () => apiGet('Catalog/GetReviewState', { productId }),
    enabled,
  });
}

/** The built-in roles and the company's custom roles with their permissions (admins only). */
export function useRoles(enabled = true) {
  return useQuery({ queryKey: keys.roles, queryFn: () => apiGet('Account/GetRoles'), enabled });
}
