import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, apiGet } from '../api/client';
import { describeError } from '../api/errors';
import type { InvitationView } from '../api/models';
import { useAcceptInvitation } from '../api/mutations';
import { ErrorText } from '../components/ErrorText';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { invitationToken, roleName } from '../lib/team';

/** Where an invitation link leads (`/invitation#<token>`, src/accounts/invitations.ts). */
export const INVITATION_PATH = '/invitation';

/**
 * Opening an invitation link (docs/teams.md): who invites whom as what; a new address chooses
 * its name and password, an address with an account gives its password; either way the invitee
 * joins the company and is signed in there. A company with mandatory single sign-on is joined
 * through its provider instead. Shown with or without a session.
 */
export function InvitationPage({ onJoined }: { onJoined: () => void }) {
  const { t } = useI18n();
  const token = invitationToken(window.location.hash);
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => apiGet('Account/GetInvitation', { token: token! }, { quietAuth: true }),
    enabled: token !== null,
    retry: false,
  });
  const invalid = token === null || (invitation.error instanceof ApiError && invitation.error.status === 404);

  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <div className="sign-in-top">
          <span className="brand">{t('app.name')}</span>
          <LanguageSwitch />
        </div>
        {invalid ? (
          <p className="notice" role="alert">
            {t('invitation.invalid')}
          </p>
        ) : (
          <QueryState isPending={invitation.isPending} error={invitation.error}>
            {invitation.data && <AcceptForm token={token} view={invitation.data} onJoined={onJoined} />}
          </QueryState>
        )}
      </div>
    </main>
  );
}

function AcceptForm({ token, view, onJoined }: { token: string; view: InvitationView; onJoined: () => void }) {
  const { t } = useI18n();
  const accept = useAcceptInvitation();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await accept.mutateAsync({ token, password, ...(view.hasAccount || !name.trim() ? {} : { name }) });
      // The session is the new company's: the app starts again at its home.
      navigate('/', { replace: true });
      onJoined();
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? t('invitation.wrongPassword') : describeError(err, t));
    }
  }

  const ssoLink = view.ssoSlug ? `/?sso=${encodeURIComponent(view.ssoSlug)}` : null;
  return (
    <>
      <h1>{t('invitation.title', { company: view.companyName })}</h1>
      <p className="muted">
        {t('invitation.intro', { role: roleName(view.role, t, view.roleName), email: view.email })}
        {view.languages.length > 0 && ` (${view.languages.join(', ')})`}
      </p>
      {view.ssoMandatory ? (
        <p className="notice">
          {t('invitation.ssoOnly')} {ssoLink && <a href={ssoLink}>{t('invitation.ssoLink')}</a>}
        </p>
      ) : (
        <form className="stack" onSubmit={submit}>
          {!view.hasAccount && (
            <label className="field">
              <span>{t('invitation.name')}</span>
              <input name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
            </label>
          )}
          <label className="field">
            <span>{view.hasAccount ? t('invitation.existingPassword') : t('invitation.newPassword')}</span>
            <input
              type="password"
              name="password"
              autoComplete={view.hasAccount ? 'current-password' : 'new-password'}
              minLength={view.hasAccount ? undefined : 12}
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            {!view.hasAccount && <small className="muted">{t('invitation.passwordHint')}</small>}
          </label>
          <ErrorText message={error} />
          <button type="submit" className="primary" disabled={accept.isPending}>
            {t('invitation.accept')}
          </button>
          {ssoLink && (
            <p className="muted">
              {t('invitation.ssoAvailable')} <a href={ssoLink}>{t('invitation.ssoLink')}</a>
            </p>
          )}
        </form>
      )}
    </>
  );
}
