import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/errors';
import { useCatalogs } from '../../api/hooks';
import { useSaveConnection } from '../../api/mutations';
import { Dialog } from '../../components/Dialog';
import { ErrorText } from '../../components/ErrorText';
import { FormField } from '../../components/FormField';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import type { Connection } from '../../api/models';

/** Add or edit a connection (admin). The secret is never shown again; left empty on edit it stays. */
export function ConnectionDialog({ connection, onClose }: { connection: Connection | null; onClose: () => void }) {
  const { t } = useI18n();
  const { departmentId } = useSession();
  const catalogs = useCatalogs();
  const saveConnection = useSaveConnection();
  const [name, setName] = useState(connection?.name ?? '');
  const [catalogId, setCatalogId] = useState(connection?.catalogId ?? catalogs.data?.items[0]?.catalogId ?? '');
  const [connectorUrl, setUrl] = useState(connection?.connectorUrl ?? '');
  const [keyId, setKeyId] = useState(connection?.keyId ?? '');
  const [secret, setSecret] = useState('');
  const [missing, setMissing] = useState(connection?.options.missing ?? 'deactivate');
  const [maxPercent, setMaxPercent] = useState(String(connection?.options.maxDeactivationPercent ?? 10));
  const [schedule, setSchedule] = useState<string>(connection?.options.schedule ?? '');
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const body = {
        departmentId,
        catalogId,
        name: name.trim(),
        connectorUrl: connectorUrl.trim(),
        keyId: keyId.trim(),
        ...(secret ? { secret } : {}),
        ...(connection ? { connectionId: connection.connectionId } : {}),
        options: {
          missing,
          maxDeactivationPercent: Number(maxPercent),
          schedule: (schedule || null) as Connection['options']['schedule'],
        },
      };
      await saveConnection.mutateAsync(body);
      onClose();
    } catch (err) {
      setError(describeError(err, t));
    }
  }

  return (
    <Dialog
      title={connection ? t('sync.editTitle', { name: connection.name }) : t('sync.addTitle')}
      open
      onClose={onClose}
      wide
    >
      <form className="form-grid" onSubmit={submit} noValidate>
        <FormField label={t('field.name')}>
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoFocus />}
        </FormField>
        <FormField label={t('common.catalog')}>
          {(p) => (
            <select {...p} value={catalogId} onChange={(e) => setCatalogId(e.target.value)}>
              {catalogs.data?.items.map((c) => (
                <option key={c.catalogId} value={c.catalogId}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label={t('sync.url')}>
          {(p) => <input {...p} type="url" value={connectorUrl} onChange={(e) => setUrl(e.target.value)} />}
        </FormField>
        <FormField label={t('sync.keyId')}>
          {(p) => <input {...p} value={keyId} onChange={(e) => setKeyId(e.target.value)} />}
        </FormField>
        <FormField label={t('sync.secret')} hint={connection ? t('sync.secretKeep') : undefined}>
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="off"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t('sync.missing')}>
          {(p) => (
            <select {...p} value={missing} onChange={(e) => setMissing(e.target.value as 'deactivate')}>
              <option value="deactivate">{t('sync.missing.deactivate')}</option>
              <option value="ignore">{t('sync.missing.ignore')}</option>
            </select>
          )}
        </FormField>
        <FormField label={t('sync.maxPercent')}>
          {(p) => (
            <input {...p} inputMode="numeric" value={maxPercent} onChange={(e) => setMaxPercent(e.target.value)} />
          )}
        </FormField>
        <FormField label={t('sync.schedule')}>
          {(p) => (
            <select {...p} value={schedule} onChange={(e) => setSchedule(e.target.value)}>
              <option value="">{t('sync.schedule.none')}</option>
              <option value="hourly">{t('sync.schedule.hourly')}</option>
              <option value="daily">{t('sync.schedule.daily')}</option>
            </select>
          )}
        </FormField>
        <div className="span-2 form-actions">
          <ErrorText message={error} />
          <button type="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="primary">
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
