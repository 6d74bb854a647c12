import type { ListQuery, Page } from '../api/models';

/**
 * Keyset paging on the client: the server hands out opaque cursors bound to one sort and
 * filter (docs/search.md; GetProducts in /api/openapi.json). These helpers keep the infinite list
 * honest: a cursor is only ever reused with the query it came from (`keys.productList`), and a
 * row that moved between pages is not shown twice.
 */

/** Drops empty parts and sorts `missing`, so equal filters give equal keys. */
export function canonical(query: ListQuery): Record<string, string> {
  const out: Record<string, string> = {};
  if (query.q?.trim()) out.q = query.q.trim();
  if (query.sort) out.sort = query.sort;
  if (query.order) out.order = query.order;
  if (query.categoryId) {
    out.categoryId = query.categoryId;
    if (query.subtree !== undefined) out.subtree = String(query.subtree);
  }
  if (query.status) out.status = query.status;
  if (query.classCode?.trim()) out.classCode = query.classCode.trim().toUpperCase();
  if (query.classificationRelease) out.classificationRelease = query.classificationRelease;
  if (query.missing?.length) out.missing = [...query.missing].sort().join(',');
  if (query.missingTranslation) out.missingTranslation = query.missingTranslation;
  if (query.language) out.language = query.language;
  // completeness (docs/completeness.md): the badge's channel and language, "incomplete for", "missing X"
  if (query.completenessChannel) out.completenessChannel = query.completenessChannel;
  if (query.incompleteFor) out.incompleteFor = query.incompleteFor;
  if (query.incompleteVariantsFor) out.incompleteVariantsFor = query.incompleteVariantsFor;
  const judged = query.incompleteFor || query.incompleteVariantsFor;
  if (query.completenessChannel || judged) {
    if (query.channelLanguage) out.channelLanguage = query.channelLanguage;
    if (judged && query.missingRequirement) out.missingRequirement = query.missingRequirement;
  }
  // sorting by score needs the channel it is scored in
  if (out.sort === 'completeness' && !query.completenessChannel) delete out.sort;
  return out;
}

/** The next cursor for useInfiniteQuery: undefined ends the list. */
export function nextCursorOf<T>(page: Page<T> | undefined): string | undefined {
  return page?.nextCursor ?? undefined;
}

/** All rows of the loaded pages in order, each id once (the first position wins). */
export function flattenPages<T>(pages: readonly Page<T>[] | undefined, idOf: (row: T) => string): T[] {
  const seen = new Set<string>();
  const rows: T[] = [];
  for (const page of pages ?? []) {
    for (const row of page.items) {
      const id = idOf(row);
      if (seen.has(id)) continue;
      seen.add(id);
      rows.push(row);
    }
  }
  return rows;
}

/**
 * Whether the next page should load: the virtual window (its last rendered row) came within
 * `threshold` rows of the end of what is loaded. The grid passes a page's worth, so the next
 * page is fetched while the user still reads the current one and is there before they reach it.
 */
export function shouldLoadMore(
  lastVisibleIndex: number,
  loadedCount: number,
  hasNext: boolean,
  busy: boolean,
  threshold = 20,
): boolean {
  return hasNext && !busy && lastVisibleIndex >= loadedCount - threshold;
}

/** Parses the grid's state from the address bar so a filtered view can be bookmarked and shared. */
export function queryFromSearch(params: URLSearchParams, catalogId: string): ListQuery {
  const sort = params.get('sort');
  const order = params.get('order');
  return {
    catalogId,
    q: params.get('q') ?? undefined,
    sort: sort === 'sku' || sort === 'name' || sort === 'updatedAt' || sort === 'completeness' ? sort : undefined,
    order: order === 'asc' || order === 'desc' ? order : undefined,
    categoryId: params.get('categoryId') ?? undefined,
    subtree: params.has('subtree') ? params.get('subtree') !== 'false' : undefined,
    // The address bar is the user's: an unknown value goes to the server, which names it in its 400.
    status: (params.get('status') ?? undefined) as ListQuery['status'],
    classCode: params.get('classCode') ?? undefined,
    classificationRelease: params.get('classificationRelease') ?? undefined,
    missing: params.get('missing')?.split(',').filter(Boolean) as ListQuery['missing'],
    missingTranslation: params.get('missingTranslation') ?? undefined,
    // The content language of the texts (docs/languages.md); the screen drops one its catalog does not publish.
    language: params.get('language') ?? undefined,
    completenessChannel: params.get('completenessChannel') ?? undefined,
    channelLanguage: params.get('channelLanguage') ?? undefined,
    incompleteFor: params.get('incompleteFor') ?? undefined,
    incompleteVariantsFor: params.get('incompleteVariantsFor') ?? undefined,
    missingRequirement: params.get('missingRequirement') ?? undefined,
  };
}
