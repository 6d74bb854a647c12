import { useState } from 'react';
import { describeError } from '../api/errors';
import type { UserRow } from '../api/models';
import { useSetMemberRole } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { Dialog } from '../components/Dialog';
import { ErrorText } from '../components/ErrorText';
import { useI18n } from '../i18n/i18n';
import { ScopePicker, scopeChoiceOf } from './ScopePicker';

/**
 * A member's catalog, category-subtree and channel scopes (docs/teams.md), saved with one
 * `SetMemberRole` that keeps their role and languages. Not offered for an admin (the server
 * refuses scopes for one).
 */
export function MemberAccessDialog({ member, onClose }: { member: UserRow; onClose: () => void }) {
  const { t } = useI18n();
  const setMemberRole = useSetMemberRole();
  const announce = useAnnounce();
  const [scope, setScope] = useState(() => scopeChoiceOf(member));
  const [error, setError] = useState<string | null>(null);
  const name = member.name || member.email;

  const save = async () => {
    setError(null);
    try {
      await setMemberRole.mutateAsync({
        userId: member.userId,
        role: member.role,
        ...(member.languages.length ? { languages: member.languages } : {}),
        ...scope,
      });
      announce(t('team.scopeSaved', { name }));
      onClose();
    } catch (err) {
      setError(describeError(err, t));
    }
  };

  return (
    <Dialog
      open
      wide
      title={t('team.scopeTitle', { name })}
      onClose={onClose}
      actions={
        <>
          <button type="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="primary" disabled={setMemberRole.isPending} onClick={() => void save()}>
            {t('common.save')}
          </button>
        </>
      }
    >
      <ScopePicker value={scope} onChange={setScope} />
      <ErrorText message={error} />
    </Dialog>
  );
}
