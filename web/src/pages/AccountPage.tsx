import { useState, type FormEvent } from 'react';
import { useChangePassword } from '../api/mutations';
import { describeError } from '../api/errors';
import { ErrorText } from '../components/ErrorText';
import { FormField } from '../components/FormField';
import { useI18n } from '../i18n/i18n';
import { validatePasswordChange } from '../lib/validate';
import { roleName } from '../lib/team';
import { useSession } from '../session/session';

/** Who is signed in, and the password change (which ends every session: the user signs in anew). */
export default function AccountPage() {
  const { t } = useI18n();
  const { account } = useSession();
  const changePassword = useChangePassword();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const problems = tried ? validatePasswordChange(current, next, repeat) : {};
  const text = (k: 'current' | 'next' | 'repeat') => (problems[k] ? t(`problem.${problems[k]!}`) : null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (Object.keys(validatePasswordChange(current, next, repeat)).length) return;
    setBusy(true);
    setError(null);
    try {
      // the server ends all sessions: back to sign-in
      await changePassword.mutateAsync({ currentPassword: current, newPassword: next });
    } catch (err) {
      setError(describeError(err, t));
      setBusy(false);
    }
  }

  return (
    <>
      <h1>{t('account.title')}</h1>
      <dl className="facts">
        <dt>{t('account.name')}</dt>
        <dd>{account.user.name}</dd>
        <dt>{t('signIn.email')}</dt>
        <dd>{account.user.email}</dd>
        <dt>{t('account.company')}</dt>
        <dd>{account.company.name}</dd>
        <dt>{t('account.role')}</dt>
        <dd>{roleName(account.role, t, account.roleName)}</dd>
        <dt>{t('account.aiSwitch')}</dt>
        <dd>{account.aiMayEditClassifications ? t('common.yes') : t('common.no')}</dd>
      </dl>
      <form className="panel stack narrow" onSubmit={submit} noValidate aria-labelledby="pw-h">
        <h2 id="pw-h">{t('account.changePassword')}</h2>
        <p className="muted">{t('account.changeHint')}</p>
        <FormField label={t('account.currentPassword')} problem={text('current')}>
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t('account.newPassword')} problem={text('next')} hint={t('account.newHint')}>
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="new-password"
              value={next}
              onChange={(e) => setNext(e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t('account.repeatPassword')} problem={text('repeat')}>
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="new-password"
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
            />
          )}
        </FormField>
        <ErrorText message={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('common.working') : t('account.changePassword')}
        </button>
      </form>
    </>
  );
}
