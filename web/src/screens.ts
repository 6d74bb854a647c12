import { matchPath } from 'react-router';
import { type ScreenModule, screenModule } from './lib/lazy-screen';

/**
 * The screens and their addresses, one code chunk each: the first paint loads only the shell
 * and the screen it shows. App renders these routes; boot.ts starts loading the chunk of the
 * address in the bar at once, in parallel with the session check, so the screen renders
 * without waiting on its code (lazyScreen).
 */
export const ROUTES: readonly { path: string; screen: ScreenModule<object> }[] = [
  { path: '/', screen: screenModule(() => import('./pages/Dashboard')) },
  { path: '/catalogs', screen: screenModule(() => import('./pages/Catalogs')) },
  { path: '/categories', screen: screenModule(() => import('./pages/Categories')) },
  { path: '/products', screen: screenModule(() => import('./pages/Products')) },
  { path: '/products/:productId', screen: screenModule(() => import('./editor/ProductEditor')) },
  { path: '/imports', screen: screenModule(() => import('./pages/Imports')) },
  { path: '/exports', screen: screenModule(() => import('./pages/Exports')) },
  { path: '/exports/templates', screen: screenModule(() => import('./pages/Templates')) },
  { path: '/admin', screen: screenModule(() => import('./pages/Admin')) },
  { path: '/admin/webhooks', screen: screenModule(() => import('./pages/AdminWebhooks')) },
  { path: '/releases', screen: screenModule(() => import('./pages/Releases')) },
  { path: '/sync', screen: screenModule(() => import('./pages/Sync')) },
  { path: '/review', screen: screenModule(() => import('./pages/Review')) },
  { path: '/account', screen: screenModule(() => import('./pages/AccountPage')) },
  { path: '*', screen: screenModule(() => import('./pages/NotFound')) },
];

/** The route an address shows (the catch-all when none matches), as App's Routes would choose it. */
export function routeAt(pathname: string): (typeof ROUTES)[number] {
  return ROUTES.find((r) => r.path !== '*' && matchPath(r.path, pathname)) ?? ROUTES.at(-1)!;
}
