import { type FormEvent, useState } from 'react';
import { describeError } from '../api/errors';
import { useRoles } from '../api/hooks';
import type { RoleItem } from '../api/models';
import { useCreateRole, useDeleteRole, useUpdateRole } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { RowActions } from '../components/RowActions';
import { useI18n } from '../i18n/i18n';
import { chosenPermissions, GRANTABLE_PERMISSIONS, permissionName, roleName } from '../lib/team';
import { ActionsTable } from '../components/ActionsTable';

/**
 * The company's roles (docs/teams.md "Custom roles"): the built-in roles with what they permit,
 * the custom ones with their members, a form to create one, and per custom role an edit form
 * (name, permissions) and a delete (refused by the server while anyone holds it).
 */
export function AdminRoles() {
  const { t } = useI18n();
  const roles = useRoles();
  const remove = useDeleteRole();
  const announce = useAnnounce();
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<RoleItem | null>(null);
  const items = roles.data?.items ?? [];
  const custom = items.filter((r) => !r.builtIn);

  return (
    <section aria-labelledby="team-roles-title">
      <h2 id="team-roles-title">{t('team.roles')}</h2>
      <p className="muted">{t('team.rolesIntro')}</p>
      <QueryState isPending={roles.isPending} error={roles.error}>
        <ActionsTable columns={[t('account.role'), t('team.permissions'), t('team.members')]}>
          {items.map((r) =>
            editing === r.roleId ? (
              <tr key={r.roleId}>
                <td colSpan={4}>
                  <RoleForm role={r} onDone={() => setEditing(null)} />
                </td>
              </tr>
            ) : (
              <tr key={r.roleId}>
                <th scope="row">
                  {roleName(r.roleId, t, r.name)}
                  {r.builtIn && <span className="muted"> ({t('team.builtIn')})</span>}
                </th>
                <td>{r.permissions.map((p) => permissionName(p, t)).join(', ')}</td>
                <td>{r.memberCount}</td>
                {r.builtIn ? (
                  <td className="actions" />
                ) : (
                  <RowActions
                    editLabel={t('team.editRole', { name: r.name })}
                    deleteLabel={t('team.deleteRole', { name: r.name })}
                    onEdit={() => setEditing(r.roleId)}
                    onDelete={() => setDeleting(r)}
                  />
                )}
              </tr>
            ),
          )}
        </ActionsTable>
        {custom.length === 0 && <p className="empty">{t('team.noCustomRoles')}</p>}
      </QueryState>
      <h3>{t('team.createRole')}</h3>
      <RoleForm />
      <ConfirmDialog
        open={deleting !== null}
        title={t('team.deleteRoleTitle')}
        message={t('team.deleteRoleText', { name: deleting?.name ?? '' })}
        confirmLabel={t('common.delete')}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await remove.mutateAsync({ roleId: deleting!.roleId });
          announce(t('team.roleDeleted', { name: deleting!.name }));
        }}
      />
    </section>
  );
}

/** Creates a custom role, or (with `role`) edits one: a name and the permissions it grants. */
function RoleForm({ role, onDone }: { role?: RoleItem; onDone?: () => void }) {
  const { t } = useI18n();
  const create = useCreateRole();
  const update = useUpdateRole();
  const announce = useAnnounce();
  const [name, setName] = useState(role?.name ?? '');
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(role?.permissions ?? ['read']));
  const [error, setError] = useState<string | null>(null);
  const busy = create.isPending || update.isPending;

  const toggle = (permission: string) => {
    const next = new Set(chosen);
    if (next.has(permission)) next.delete(permission);
    else next.add(permission);
    setChosen(next);
  };
  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const permissions = chosenPermissions(chosen);
    try {
      if (role) {
        await update.mutateAsync({ roleId: role.roleId, name, permissions });
        announce(t('team.roleSaved', { name }));
        onDone?.();
      } else {
        await create.mutateAsync({ name, permissions });
        announce(t('team.roleCreated', { name }));
        setName('');
        setChosen(new Set(['read']));
      }
    } catch (err) {
      setError(describeError(err, t));
    }
  }

  return (
    <form
      className="stack"
      onSubmit={submit}
      aria-label={role ? t('team.editRole', { name: role.name }) : t('team.createRole')}
    >
      <label className="field">
        <span>{t('team.roleName')}</span>
        <input name="roleName" required maxLength={60} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <fieldset>
        <legend>{t('team.permissions')}</legend>
        {GRANTABLE_PERMISSIONS.map((p) => (
          <label key={p} className="check-field">
            <input
              type="checkbox"
              name="permissions"
              value={p}
              checked={p === 'read' || chosen.has(p)}
              disabled={p === 'read'}
              onChange={() => toggle(p)}
            />
            <span>{permissionName(p, t)}</span>
          </label>
        ))}
        <p className="muted">{t('team.readAlways')}</p>
      </fieldset>
      <div className="toolbar">
        <button type="submit" className="primary" disabled={busy}>
          {role ? t('common.save') : t('team.createRole')}
        </button>
        {role && (
          <button type="button" onClick={onDone}>
            {t('common.cancel')}
          </button>
        )}
      </div>
      <ErrorText message={error} />
    </form>
  );
}
