import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/errors';
import { useCatalogs, useShopDefaults } from '../../api/hooks';
import { useSaveConnection } from '../../api/mutations';
import { Dialog } from '../../components/Dialog';
import { ErrorText } from '../../components/ErrorText';
import { FormField } from '../../components/FormField';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import type { Connection } from '../../api/models';
import { draftOfShop, type ShopDraft, shopInputOf, shopProblems } from '../../lib/shop-form';
import { ShopSection } from './ShopSection';
import { ShopTest } from './ShopTest';

/**
 * Add or edit a connection (admin), with its shop (docs/web.md "Shops"). The secret and the
 * shop's credentials are never shown again; left empty on edit they stay.
 */
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
  const catalogOf = (id: string) => {
    const c = catalogs.data?.items.find((item) => item.catalogId === id);
    return c ? { language: c.language, languages: c.languages } : { language: 'deu', languages: ['deu'] };
  };
  const catalog = catalogOf(catalogId);
  const stored = connection?.shop ?? null;
  const [shop, setShop] = useState<ShopDraft | null>(stored ? draftOfShop(stored, catalog) : null);
  const shopDefaults = useShopDefaults(shop?.kind ?? null);
  const [checked, setChecked] = useState(false);
  const keepsCredentials = Boolean(stored?.hasCredentials && shop && stored.kind === shop.kind);
  const problems =
    shop && shopDefaults.data?.kind === shop.kind ? shopProblems(shop, shopDefaults.data, keepsCredentials) : {};

  /** The shop of the write: the form's, null to remove the stored one, left out when there is none. */
  function shopOfWrite() {
    if (shop && shopDefaults.data?.kind === shop.kind) return { shop: shopInputOf(shop, shopDefaults.data) };
    return stored && !shop ? { shop: null } : {};
  }

  /** The shop as edited for "Test these shop settings"; null while the form has problems. */
  function shopOfTest() {
    if (!shop || shopDefaults.data?.kind !== shop.kind || Object.keys(problems).length > 0) return null;
    return shopInputOf(shop, shopDefaults.data);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setChecked(true);
    if (Object.keys(problems).length > 0 || (shop && shopDefaults.data?.kind !== shop.kind)) return;
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
        ...shopOfWrite(),
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
        <ShopSection
          catalogId={catalogId}
          stored={stored}
          draft={shop}
          onChange={setShop}
          catalog={catalog}
          problems={checked ? problems : {}}
        >
          <ShopTest
            connectionId={connection?.connectionId ?? null}
            connector={{ catalogId, connectorUrl, keyId, secret }}
            input={shopOfTest()}
            onBlocked={() => setChecked(true)}
          />
        </ShopSection>
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
