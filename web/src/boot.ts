import type { QueryClient } from '@tanstack/react-query';
import { attributesQuery, catalogsQuery } from './api/hooks';
import { attributeCodesOf, loadColumnChoice } from './lib/column-choice';
import { queryFromSearch } from './lib/cursor';
import { readLastCatalog } from './lib/last-catalog';
import { meQuery } from './session/session';
import { productListOptions } from './pages/products/list-query';
import { routeAt } from './screens';

/**
 * Starts what the screen in the address bar needs at once, in parallel with the session check
 * ("who am I"), instead of one after the other (session → screen code → catalogs → first page):
 * every screen's code chunk, and for the product grid its data too. The grid's code is also
 * preloaded by index.html (web/vite.config.ts); the import here evaluates it.
 * The calls are the screen's own queries (same keys), so the screen finds them in flight or done.
 * They are quiet on 401: when the session has ended, the sign-in page is what shows, and after
 * signing in the screen asks again (a query in error state refetches when it mounts).
 */
export function prefetchForAddress(client: QueryClient, location: Pick<Location, 'pathname' | 'search'>): void {
  // first: every screen waits for it (the browser opens few connections per host)
  void client.prefetchQuery(meQuery());
  void routeAt(location.pathname).screen.load();
  if (location.pathname !== '/products') return;
  const quiet = { quietAuth: true };
  void client.prefetchQuery(catalogsQuery(quiet));
  void client.prefetchQuery(attributesQuery(quiet));
  const params = new URLSearchParams(location.search);
  const catalogId = params.get('catalog') ?? readLastCatalog();
  if (!catalogId) return;
  const codes = attributeCodesOf(loadColumnChoice());
  void client.prefetchInfiniteQuery(productListOptions(queryFromSearch(params, catalogId), codes, quiet));
}
