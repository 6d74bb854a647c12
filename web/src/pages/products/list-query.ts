import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiGet } from '../../api/client';
import { keys } from '../../api/keys';
import { canonical, nextCursorOf } from '../../lib/cursor';
import type { ListQuery } from '../../api/models';

/** Rows per GetProducts page of the grid. */
export const PAGE_SIZE = 100;

/**
 * The grid's infinite list: keyset pages of GetProducts for one filter and sort, with the
 * values of the chosen attribute columns in the same answer (`attributes`, one request per page).
 * Shared by the screen and the boot prefetch (boot.ts), so both fill the same cache entry.
 */
export function productListOptions(
  query: ListQuery,
  attributes: readonly string[],
  options: { quietAuth?: boolean } = {},
) {
  return infiniteQueryOptions({
    queryKey: keys.productList(query, attributes),
    queryFn: ({ pageParam, signal }) =>
      apiGet(
        'Catalog/GetProducts',
        {
          catalogId: query.catalogId,
          ...canonical(query),
          attributes: attributes.join(','),
          cursor: pageParam,
          limit: PAGE_SIZE,
        },
        { signal, quietAuth: options.quietAuth },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursorOf,
  });
}
