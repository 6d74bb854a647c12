import { Component, type ReactNode } from 'react';
import { useI18n } from '../i18n/i18n';
import { allowScreenRetry } from '../lib/lazy-screen';

/** What a screen shows when its code could not be loaded or it failed to render: words and a way on, not a blank page. */
function ScreenFailed() {
  const { t } = useI18n();
  return (
    <div className="stack">
      <p className="error-text" role="alert">
        {t('screen.failed')}
      </p>
      <div>
        <button type="button" onClick={() => window.location.reload()}>
          {t('screen.reload')}
        </button>
      </div>
    </div>
  );
}

/**
 * Catches a screen that failed to load or render (its code chunk gone after a new version was
 * deployed, a lost connection), so the shell and its navigation stay usable. Another address
 * tries again.
 */
export class ScreenBoundary extends Component<
  { pathname: string; children: ReactNode },
  { failed: boolean; pathname: string }
> {
  override state = { failed: false, pathname: this.props.pathname };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: { pathname: string }, state: { failed: boolean; pathname: string }) {
    if (props.pathname === state.pathname) return null;
    // a screen whose chunk did not arrive loads again when it is shown next (lazy-screen.ts)
    if (state.failed) allowScreenRetry();
    return { failed: false, pathname: props.pathname };
  }

  override render() {
    return this.state.failed ? <ScreenFailed /> : this.props.children;
  }
}
