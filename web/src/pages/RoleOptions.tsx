import { ROLES } from '../api/models';
import { useI18n } from '../i18n/i18n';

/** A role select's options: the six built-in roles, then the company's custom roles under their own heading. */
export function RoleOptions({ customRoles }: { customRoles: readonly { roleId: string; name: string }[] }) {
  const { t } = useI18n();
  return (
    <>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {t(`role.${role}`)}
        </option>
      ))}
      {customRoles.length > 0 && (
        <optgroup label={t('team.customRoles')}>
          {customRoles.map((r) => (
            <option key={r.roleId} value={r.roleId}>
              {r.name}
            </option>
          ))}
        </optgroup>
      )}
    </>
  );
}
