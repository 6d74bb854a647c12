import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { describeError } from '../api/errors';
import { useSsoStart } from '../api/mutations';
import { ErrorText } from '../components/ErrorText';
import type { MessageKey } from '../i18n/de';
import { useI18n } from '../i18n/i18n';

const SSO_FAILURES = ['expired', 'denied', 'token', 'no-email', 'no-role', 'groups', 'foreign-account', 'deactivated'];

/**
 * "Sign in with SSO" (docs/sso.md): the company's sign-in name leads to its identity provider.
 * `?sso=<name>` (the company's sign-in link) starts at once; `?ssoError=<reason>` is the
 * callback's answer when the sign-in was refused.
 */
export function SsoSignIn() {
  const { t } = useI18n();
  const params = new URLSearchParams(window.location.search);
  const linked = params.get('sso') ?? '';
  const failure = params.get('ssoError');
  const [open, setOpen] = useState(!!linked || !!failure);
  const [slug, setSlug] = useState(linked);
  const [error, setError] = useState<string | null>(
    failure ? t(`signIn.ssoError.${SSO_FAILURES.includes(failure) ? failure : 'token'}` as MessageKey) : null,
  );
  const [busy, setBusy] = useState(false);
  const start = useSsoStart();
  const started = useRef(false);

  async function go(name: string) {
    setBusy(true);
    setError(null);
    try {
      const { redirectUrl } = await start.mutateAsync({ slug: name.trim().toLowerCase() });
      window.location.assign(redirectUrl);
    } catch (err) {
      setError(
        err instanceof ApiError && (err.status === 404 || err.status === 400)
          ? t('signIn.ssoUnknown')
          : describeError(err, t),
      );
      setBusy(false);
    }
  }

  useEffect(() => {
    if (linked && !failure && !started.current) {
      started.current = true;
      void go(linked);
    }
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    void go(slug);
  }

  if (!open) {
    return (
      <button type="button" className="secondary sso-open" onClick={() => setOpen(true)}>
        {t('signIn.sso')}
      </button>
    );
  }
  return (
    <form className="stack sso-form" onSubmit={submit} aria-label={t('signIn.sso')}>
      <h2>{t('signIn.sso')}</h2>
      <p className="muted">{t('signIn.ssoIntro')}</p>
      <label className="field">
        <span>{t('signIn.ssoSlug')}</span>
        <input
          name="sso-slug"
          required
          autoComplete="organization"
          value={slug}
          onChange={(e) => setSlug(e.target.value)}
        />
      </label>
      <ErrorText message={error} />
      <button type="submit" className="primary" disabled={busy}>
        {busy ? t('common.working') : t('signIn.ssoContinue')}
      </button>
    </form>
  );
}
