import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { apiGet } from '../api/client';
import { keys } from '../api/keys';
import {
  useDeactivateMember,
  useReactivateMember,
  useRevokeAiAccess,
  useSetAiSwitch,
  useSetMemberRole,
} from '../api/mutations';
import { describeError } from '../api/errors';
import { useCatalogs, useCategoryPaths, useChannels, useRoles } from '../api/hooks';
import type { MemberRole, UserRow } from '../api/models';
import { useAnnounce } from '../components/Announcer';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { categoryScopeNames, roleName, scopeSummary, ssoRoleNote, takesLanguages } from '../lib/team';
import { useSession } from '../session/session';
import { AdminChannels } from './AdminChannels';
import { AdminLanguages } from './AdminLanguages';
import { AdminRoles } from './AdminRoles';
import { MemberAccessDialog } from './MemberAccessDialog';
import { AdminSso } from './AdminSso';
import { AdminTeam } from './AdminTeam';
import { RoleOptions } from './RoleOptions';
import { ActionsTable } from '../components/ActionsTable';

/**
 * Admin: the company's users, their role (and a translator's languages, docs/teams.md), their
 * switch "AI may edit classifications", revoking AI access, deactivating and reactivating members,
 * the Team parts (invitations and the audit of permission changes, AdminTeam.tsx) and the company's
 * content languages.
 */
export default function Admin() {
  const { t } = useI18n();
  const { isAdmin } = useSession();
  const setAiSwitch = useSetAiSwitch();
  const setMemberRole = useSetMemberRole();
  const revokeAiAccess = useRevokeAiAccess();
  const announce = useAnnounce();
  const users = useQuery({
    queryKey: keys.users,
    queryFn: () => apiGet('Account/GetUsers'),
    enabled: isAdmin,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [revoking, setRevoking] = useState<UserRow | null>(null);
  const [deactivating, setDeactivating] = useState<UserRow | null>(null);
  const deactivateMember = useDeactivateMember();
  const reactivateMember = useReactivateMember();
  const [access, setAccess] = useState<UserRow | null>(null);
  const roles = useRoles(isAdmin);
  const customRoles = roles.data?.items.filter((r) => !r.builtIn) ?? [];
  // The names of what scopes name: catalogs, channels and categories (each by its path of names).
  const catalogs = useCatalogs();
  const channels = useChannels();
  const categoryPaths = useCategoryPaths((users.data?.items ?? []).flatMap((u) => u.categoryIds));
  const scopeNames = new Map<string, string>([
    ...(catalogs.data?.items ?? []).map((c) => [c.catalogId, c.name] as [string, string]),
    ...(channels.data?.items ?? []).map((c) => [c.channelId, c.name] as [string, string]),
    ...categoryScopeNames(categoryPaths.map((q) => q.data)),
  ]);

  if (!isAdmin)
    return (
      <>
        <h1>{t('admin.title')}</h1>
        <p className="notice">{t('admin.onlyAdmins')}</p>
      </>
    );

  const setSwitch = async (user: UserRow, enabled: boolean) => {
    setErrors({ ...errors, [user.userId]: '' });
    try {
      await setAiSwitch.mutateAsync({ userId: user.userId, enabled });
      announce(t(enabled ? 'admin.switchOn' : 'admin.switchOff', { name: user.name || user.email }));
    } catch (err) {
      setErrors({ ...errors, [user.userId]: describeError(err, t) });
    }
  };

  const setRole = async (user: UserRow, role: MemberRole, languages: string[]) => {
    setErrors({ ...errors, [user.userId]: '' });
    try {
      const withLanguages = takesLanguages(role, roles.data?.items);
      await setMemberRole.mutateAsync({ userId: user.userId, role, ...(withLanguages ? { languages } : {}) });
      announce(t('admin.roleSet', { name: user.name || user.email, role: roleName(role, t, roles.data?.items) }));
    } catch (err) {
      setErrors({ ...errors, [user.userId]: describeError(err, t) });
    }
  };
  const reactivate = async (user: UserRow) => {
    setErrors({ ...errors, [user.userId]: '' });
    try {
      await reactivateMember.mutateAsync({ userId: user.userId });
      announce(t('team.reactivated', { name: user.name || user.email }));
    } catch (err) {
      setErrors({ ...errors, [user.userId]: describeError(err, t) });
    }
  };
  /** Who made a recorded change: their name or address when they are in the list. */
  const nameOf = (userId: string) => {
    const user = users.data?.items.find((u) => u.userId === userId);
    return user ? user.name || user.email : userId;
  };
  const languagesOf = (text: string) =>
    text
      .split(/[\s,]+/)
      .map((code) => code.trim().toLowerCase())
      .filter(Boolean);

  return (
    <>
      <h1>{t('admin.title')}</h1>
      <p className="muted">{t('admin.intro')}</p>
      <QueryState isPending={users.isPending} error={users.error} unsupportedText={t('admin.unsupported')}>
        <ActionsTable
          columns={[t('account.name'), t('signIn.email'), t('account.role'), t('account.aiSwitch'), t('team.status')]}
        >
          {users.data?.items.map((u) => (
            <tr key={u.userId}>
              <th scope="row">{u.name}</th>
              <td>{u.email}</td>
              <td>
                <select
                  value={u.role}
                  disabled={u.status === 'deactivated'}
                  aria-label={t('admin.roleFor', { name: u.name || u.email })}
                  onChange={(e) => void setRole(u, e.target.value, u.languages)}
                >
                  <RoleOptions customRoles={customRoles} />
                </select>
                {ssoRoleNote(u, t, roles.data?.items) && (
                  <div className="muted">{ssoRoleNote(u, t, roles.data?.items)}</div>
                )}
                {takesLanguages(u.role, roles.data?.items) && (
                  <input
                    key={u.languages.join(',')}
                    defaultValue={u.languages.join(', ')}
                    placeholder={t('admin.languages')}
                    aria-label={t('admin.languagesFor', { name: u.name || u.email })}
                    onBlur={(e) => {
                      const next = languagesOf(e.target.value);
                      if (next.join(',') !== u.languages.join(',')) void setRole(u, u.role, next);
                    }}
                  />
                )}
                {u.role !== 'admin' && (
                  <div className="muted">
                    {t('team.scope')}: {scopeSummary(u, scopeNames, t)}{' '}
                    {u.status === 'active' && (
                      <button
                        type="button"
                        onClick={() => setAccess(u)}
                        aria-label={t('team.scopeFor', { name: u.name || u.email })}
                      >
                        {t('team.scopeEdit')}
                      </button>
                    )}
                  </div>
                )}
              </td>
              <td>
                <label className="switch">
                  <input
                    type="checkbox"
                    role="switch"
                    aria-checked={u.aiMayEditClassifications}
                    checked={u.aiMayEditClassifications}
                    onChange={(e) => void setSwitch(u, e.target.checked)}
                    aria-label={t('admin.switchFor', { name: u.name || u.email })}
                  />
                  <span>{u.aiMayEditClassifications ? t('common.on') : t('common.off')}</span>
                </label>
                <ErrorText message={errors[u.userId] || null} />
              </td>
              <td>{t(`team.status.${u.status}`)}</td>
              <td className="actions">
                {u.status === 'active' ? (
                  <button
                    type="button"
                    className="danger-quiet"
                    onClick={() => setDeactivating(u)}
                    aria-label={t('team.deactivateFor', { name: u.name || u.email })}
                  >
                    {t('team.deactivate')}
                  </button>
                ) : (
                  <button
                    type="button"
                    onClick={() => void reactivate(u)}
                    aria-label={t('team.reactivateFor', { name: u.name || u.email })}
                  >
                    {t('team.reactivate')}
                  </button>
                )}
                <button
                  type="button"
                  className="danger-quiet"
                  onClick={() => setRevoking(u)}
                  aria-label={t('admin.revokeFor', { name: u.name || u.email })}
                >
                  {t('admin.revoke')}
                </button>
              </td>
            </tr>
          ))}
        </ActionsTable>
      </QueryState>
      {access && <MemberAccessDialog member={access} onClose={() => setAccess(null)} />}
      <AdminRoles />
      <AdminTeam nameOf={nameOf} />
      <AdminLanguages />
      <AdminChannels />
      <AdminSso />
      <section aria-labelledby="webhooks-link-title">
        <h2 id="webhooks-link-title">{t('admin.webhooks')}</h2>
        <p className="muted">{t('admin.webhooksIntro')}</p>
        <p>
          <Link to="/admin/webhooks">{t('webhooks.title')}</Link>
        </p>
      </section>
      <ConfirmDialog
        open={deactivating !== null}
        title={t('team.deactivateTitle')}
        message={t('team.deactivateText', { name: deactivating?.name || deactivating?.email || '' })}
        confirmLabel={t('team.deactivate')}
        onClose={() => setDeactivating(null)}
        onConfirm={async () => {
          await deactivateMember.mutateAsync({ userId: deactivating!.userId });
          announce(t('team.deactivated', { name: deactivating!.name || deactivating!.email }));
        }}
      />
      <ConfirmDialog
        open={revoking !== null}
        title={t('admin.revokeTitle')}
        message={t('admin.revokeText', { name: revoking?.name || revoking?.email || '' })}
        confirmLabel={t('admin.revoke')}
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          await revokeAiAccess.mutateAsync({ userId: revoking!.userId });
          announce(t('admin.revoked', { name: revoking!.name || revoking!.email }));
        }}
      />
    </>
  );
}
