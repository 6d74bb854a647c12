import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { apiGet } from '../api/client';
import { useRoles } from '../api/hooks';
import { describeError } from '../api/errors';
import { keys } from '../api/keys';
import type { Invitation, MemberChange, MemberRole } from '../api/models';
import { useInviteMember, useRevokeInvitation } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { flattenPages, nextCursorOf } from '../lib/cursor';
import { actionText, changeLines, parseLanguages, roleName, takesLanguages } from '../lib/team';
import { noScope, ScopePicker } from './ScopePicker';
import { RoleOptions } from './RoleOptions';
import { ActionsTable } from '../components/ActionsTable';

/**
 * The Team parts of Administration (docs/teams.md): the invite form, which shows the new link
 * once (no e-mail is sent), the company's invitations with their status, and the audit of every
 * permission change. Members themselves (role, status) are the table in Admin.tsx.
 */
export function AdminTeam({ nameOf }: { nameOf: (userId: string) => string }) {
  return (
    <>
      <InviteForm />
      <Invitations />
      <MemberAudit nameOf={nameOf} />
    </>
  );
}

function InviteForm() {
  const { t } = useI18n();
  const invite = useInviteMember();
  const announce = useAnnounce();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('editor');
  const [languages, setLanguages] = useState('');
  const [scope, setScope] = useState(noScope);
  const roles = useRoles();
  const customRoles = roles.data?.items.filter((r) => !r.builtIn) ?? [];
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ email: string; link: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const codes = takesLanguages(role, roles.data?.items) ? parseLanguages(languages) : [];
      const scoped = role === 'admin' ? {} : scope;
      const result = await invite.mutateAsync({
        email,
        role,
        ...(codes.length ? { languages: codes } : {}),
        ...scoped,
      });
      setCreated({ email: result.email, link: result.link });
      setEmail('');
      setLanguages('');
      setScope(noScope());
      announce(t('team.invited', { email: result.email }));
    } catch (err) {
      setError(describeError(err, t));
    }
  }

  return (
    <section aria-labelledby="team-invite-title">
      <h2 id="team-invite-title">{t('team.invite')}</h2>
      <p className="muted">{t('team.inviteHint')}</p>
      <form className="toolbar" onSubmit={submit}>
        <label className="field">
          <span>{t('signIn.email')}</span>
          <input type="email" name="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="field">
          <span>{t('account.role')}</span>
          <select name="role" value={role} onChange={(e) => setRole(e.target.value)}>
            <RoleOptions customRoles={customRoles} />
          </select>
        </label>
        {takesLanguages(role, roles.data?.items) && (
          <label className="field">
            <span>{t('admin.languages')}</span>
            <input name="languages" value={languages} onChange={(e) => setLanguages(e.target.value)} />
          </label>
        )}
        {role !== 'admin' && (
          <details>
            <summary>{t('team.scope')}</summary>
            <ScopePicker value={scope} onChange={setScope} />
          </details>
        )}
        <button type="submit" className="primary" disabled={invite.isPending}>
          {t('team.inviteSubmit')}
        </button>
      </form>
      <ErrorText message={error} />
      {created && <InvitationLink email={created.email} link={created.link} />}
    </section>
  );
}

/** The new link, shown once: only its hash is stored on the server. */
function InvitationLink({ email, link }: { email: string; link: string }) {
  const { t } = useI18n();
  const announce = useAnnounce();
  const copy = async () => {
    await navigator.clipboard?.writeText(link);
    announce(t('team.copied'));
  };
  return (
    <div className="notice" role="status">
      <label className="field">
        <span>{t('team.linkFor', { email })}</span>
        <input readOnly value={link} data-testid="invitation-link" onFocus={(e) => e.target.select()} />
      </label>
      <p className="muted">{t('team.linkShownOnce')}</p>
      <button type="button" onClick={() => void copy()}>
        {t('team.copy')}
      </button>
    </div>
  );
}

function Invitations() {
  const { t, date } = useI18n();
  const revoke = useRevokeInvitation();
  const announce = useAnnounce();
  const [error, setError] = useState<string | null>(null);
  const invitations = useQuery({ queryKey: keys.invitations, queryFn: () => apiGet('Account/GetInvitations') });
  const roles = useRoles();

  const revokeOne = async (invitation: Invitation) => {
    setError(null);
    try {
      await revoke.mutateAsync({ invitationId: invitation.invitationId });
      announce(t('team.invitationRevoked', { email: invitation.email }));
    } catch (err) {
      setError(describeError(err, t));
    }
  };

  return (
    <section aria-labelledby="team-invitations-title">
      <h2 id="team-invitations-title">{t('team.invitations')}</h2>
      <QueryState isPending={invitations.isPending} error={invitations.error}>
        {invitations.data?.items.length === 0 ? (
          <p className="empty">{t('team.noInvitations')}</p>
        ) : (
          <ActionsTable columns={[t('signIn.email'), t('account.role'), t('team.status'), t('team.expires')]}>
            {invitations.data?.items.map((i) => (
              <tr key={i.invitationId}>
                <th scope="row">{i.email}</th>
                <td>
                  {roleName(i.role, t, roles.data?.items)}
                  {i.languages.length > 0 && ` (${i.languages.join(', ')})`}
                </td>
                <td>{t(`team.status.${i.status}`)}</td>
                <td>
                  <time dateTime={i.expiresAt}>{date(i.expiresAt)}</time>
                </td>
                <td className="actions">
                  {i.status === 'open' && (
                    <button
                      type="button"
                      className="danger-quiet"
                      onClick={() => void revokeOne(i)}
                      aria-label={t('team.revokeInvitationFor', { email: i.email })}
                    >
                      {t('team.revokeInvitation')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </ActionsTable>
        )}
      </QueryState>
      <ErrorText message={error} />
    </section>
  );
}

const AUDIT_PAGE = 50;

/** The audit: every permission change of the company, newest first, older pages on demand. */
function MemberAudit({ nameOf }: { nameOf: (userId: string) => string }) {
  const { t, date } = useI18n();
  const audit = useInfiniteQuery({
    queryKey: keys.memberChanges,
    queryFn: ({ pageParam, signal }) =>
      apiGet('Account/GetMemberChanges', { cursor: pageParam, limit: AUDIT_PAGE }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursorOf,
  });
  const items = useMemo(() => flattenPages(audit.data?.pages, (c: MemberChange) => c.changeId), [audit.data]);
  return (
    <section aria-labelledby="team-audit-title">
      <h2 id="team-audit-title">{t('team.audit')}</h2>
      <QueryState isPending={audit.isPending} error={audit.error}>
        {items.length === 0 ? (
          <p className="empty">{t('team.noChanges')}</p>
        ) : (
          <table className="table" aria-labelledby="team-audit-title">
            <thead>
              <tr>
                <th scope="col">{t('team.when')}</th>
                <th scope="col">{t('team.who')}</th>
                <th scope="col">{t('team.what')}</th>
                <th scope="col">{t('team.by')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.changeId}>
                  <td>
                    <time dateTime={item.at}>{date(item.at)}</time>
                  </td>
                  <th scope="row">{item.email ?? item.userId ?? item.invitationId}</th>
                  <td>
                    <strong>{actionText(item.action, t)}</strong>
                    {changeLines(item, t).map((line) => (
                      <div key={line} className="muted">
                        {line}
                      </div>
                    ))}
                  </td>
                  <td>{nameOf(item.changedBy)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {audit.hasNextPage && (
          <div className="toolbar">
            <button type="button" onClick={() => audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
              {audit.isFetchingNextPage ? t('common.loading') : t('team.more')}
            </button>
          </div>
        )}
      </QueryState>
    </section>
  );
}
