import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { Route, Routes } from 'react-router';
import { describeError } from './api/errors';
import { Dialog } from './components/Dialog';
import { ErrorText } from './components/ErrorText';
import { useI18n } from './i18n/i18n';
import { productsScreen } from './boot';
import { lazyScreen } from './lib/lazy-screen';
import { Shell } from './Shell';
import { SessionProvider, meQueryKey, useMe, useSessionExpired } from './session/session';
import { SignInPage } from './session/SignInPage';
import { SignInForm } from './session/SignInForm';

// One chunk per screen: the first paint loads only the shell and the screen it shows.
const Dashboard = lazy(() => import('./pages/Dashboard'));
const Catalogs = lazy(() => import('./pages/Catalogs'));
const Categories = lazy(() => import('./pages/Categories'));
const Products = lazyScreen(productsScreen);
const ProductEditor = lazy(() => import('./editor/ProductEditor'));
const Exports = lazy(() => import('./pages/Exports'));
const Templates = lazy(() => import('./pages/Templates'));
const Admin = lazy(() => import('./pages/Admin'));
const Sync = lazy(() => import('./pages/Sync'));
const AccountPage = lazy(() => import('./pages/AccountPage'));
const NotFound = lazy(() => import('./pages/NotFound'));

export function App() {
  const { t } = useI18n();
  const me = useMe();
  const client = useQueryClient();
  const [expired, clearExpired] = useSessionExpired();

  useEffect(() => {
    if (me.data === null) clearExpired();
  }, [me.data, clearExpired]);

  if (me.isPending)
    return (
      <p className="boot muted" role="status">
        {t('common.loading')}
      </p>
    );
  if (me.error)
    return (
      <main className="boot">
        <ErrorText message={describeError(me.error, t)} />
      </main>
    );
  // Not signed in: the sign-in page shows at the requested address, so after signing in the user lands where they wanted to go.
  if (!me.data) return <SignInPage onSignedIn={() => client.invalidateQueries({ queryKey: meQueryKey })} />;

  return (
    <SessionProvider account={me.data}>
      <Shell>
        <Suspense
          fallback={
            <p className="muted" role="status">
              {t('common.loading')}
            </p>
          }
        >
          <Routes>
            <Route path="/" element={<Dashboard />} />
            <Route path="/catalogs" element={<Catalogs />} />
            <Route path="/categories" element={<Categories />} />
            <Route path="/products" element={<Products />} />
            <Route path="/products/:productId" element={<ProductEditor />} />
            <Route path="/exports" element={<Exports />} />
            <Route path="/exports/templates" element={<Templates />} />
            <Route path="/admin" element={<Admin />} />
            <Route path="/sync" element={<Sync />} />
            <Route path="/account" element={<AccountPage />} />
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </Shell>
      {/* Session expired mid-work: sign in again over the page, which keeps its state and unsaved input. */}
      <Dialog title={t('signIn.expiredTitle')} open={expired} onClose={() => client.setQueryData(meQueryKey, null)}>
        <p>{t('signIn.expiredText')}</p>
        <SignInForm
          email={me.data.user.email}
          onSignedIn={() => {
            clearExpired();
            void client.invalidateQueries();
          }}
        />
      </Dialog>
    </SessionProvider>
  );
}
