import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { describeError } from '../api/errors';
import { useI18n } from '../i18n/i18n';
import { ErrorText } from '../components/ErrorText';
import { useSignIn } from '../api/mutations';

/** Email + password; on success calls `onSignedIn` (the caller refreshes the session). */
export function SignInForm({ onSignedIn, email: presetEmail = '' }: { onSignedIn: () => void; email?: string }) {
  const { t } = useI18n();
  const [email, setEmail] = useState(presetEmail);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const signIn = useSignIn();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn.mutateAsync({ email, password });
      setPassword('');
      onSignedIn();
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401 && err.message.includes('single sign-on')
          ? t('signIn.ssoRequired')
          : err instanceof ApiError && (err.status === 401 || err.status === 400)
            ? t('signIn.failed')
            : describeError(err, t),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="stack" onSubmit={submit} noValidate={false}>
      <label className="field">
        <span>{t('signIn.email')}</span>
        <input
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{t('signIn.password')}</span>
        <input
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <ErrorText message={error} />
      <button type="submit" className="primary" disabled={busy}>
        {busy ? t('common.working') : t('signIn.submit')}
      </button>
    </form>
  );
}
