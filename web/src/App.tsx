import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { describeError } from './api/errors';
import { Dialog } from './components/Dialog';
import { ErrorText } from './components/ErrorText';
import { ScreenBoundary } from './components/ScreenBoundary';
import { useI18n } from './i18n/i18n';
import { lazyScreen } from './lib/lazy-screen';
import { ROUTES, routeAt } from './screens';
import { Shell } from './Shell';
import { keys } from './api/keys';
import { SessionProvider, useMe, useSessionExpired } from './session/session';
import { INVITATION_PATH, InvitationPage } from './session/InvitationPage';
import { SignInPage } from './session/SignInPage';
import { SignInForm } from './session/SignInForm';

/** Each route's screen, rendered without suspending once its chunk is there (boot.ts starts the one in the address bar). */
const SCREENS = ROUTES.map((r) => ({ path: r.path, Screen: lazyScreen(r.screen) }));

/** The screen of the address the app was opened at (boot.ts started loading its chunk). */
const firstScreen = routeAt(window.location.pathname).screen;

/**
 * Whether the first screen's chunk has arrived. The first render waits for it as for the
 * session check, so the screen appears once instead of after a Suspense fallback, which React
 * holds for up to 300 ms even when the chunk arrives a moment later. Later screens load inside
 * navigations (transitions: the current screen stays until the next one is there).
 */
function useFirstScreenLoaded(): boolean {
  const [loaded, setLoaded] = useState(() => firstScreen.loaded() !== undefined);
  useEffect(() => {
    // a failed load renders anyway: the route's lazy component throws, ScreenBoundary says so
    const done = () => setLoaded(true);
    if (!loaded) firstScreen.load().then(done, done);
  }, [loaded]);
  return loaded;
}

export function App() {
  const { t } = useI18n();
  const me = useMe();
  const client = useQueryClient();
  const [expired, clearExpired] = useSessionExpired();
  const firstScreenLoaded = useFirstScreenLoaded();
  const location = useLocation();

  useEffect(() => {
    if (me.data === null) clearExpired();
  }, [me.data, clearExpired]);

  // An invitation link opens its own page, signed in or not (docs/teams.md).
  if (location.pathname === INVITATION_PATH) return <InvitationPage onJoined={() => client.resetQueries()} />;
  if (me.isPending || (me.data && !firstScreenLoaded))
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
  if (!me.data) return <SignInPage onSignedIn={() => client.invalidateQueries({ queryKey: keys.me })} />;

  return (
    <SessionProvider account={me.data}>
      <Shell>
        <ScreenBoundary pathname={location.pathname}>
          <Suspense
            fallback={
              <p className="muted" role="status">
                {t('common.loading')}
              </p>
            }
          >
            <Routes>
              {SCREENS.map(({ path, Screen }) => (
                <Route key={path} path={path} element={<Screen />} />
              ))}
            </Routes>
          </Suspense>
        </ScreenBoundary>
      </Shell>
      {/* Session expired mid-work: sign in again over the page, which keeps its state and unsaved input. */}
      <Dialog title={t('signIn.expiredTitle')} open={expired} onClose={() => client.setQueryData(keys.me, null)}>
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
