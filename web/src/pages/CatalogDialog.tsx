import { useState, type FormEvent } from 'react';
import { describeError } from '../api/errors';
import { useSaveCatalog } from '../api/mutations';
import type { Catalog } from '../api/models';
import { Dialog } from '../components/Dialog';
import { ErrorText } from '../components/ErrorText';
import { FormField } from '../components/FormField';
import { useAnnounce } from '../components/Announcer';
import { useI18n } from '../i18n/i18n';
import { validateCatalog, type CatalogForm } from '../lib/validate';
import { useSession } from '../session/session';

const empty: CatalogForm = { name: '', catalogType: 'full', catalogVersion: '', language: 'deu', currency: 'EUR' };

/** Create (catalog = null) or edit a catalog: name, type, version, language, currency. */
export function CatalogDialog({
  catalog,
  open,
  onClose,
}: {
  catalog: Catalog | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const { departmentId } = useSession();
  const saveCatalog = useSaveCatalog();
  const announce = useAnnounce();
  const [form, setForm] = useState<CatalogForm>(() =>
    catalog
      ? {
          name: catalog.name,
          catalogType: catalog.catalogType ?? '',
          catalogVersion: catalog.catalogVersion ?? '',
          language: catalog.language,
          currency: catalog.currency,
        }
      : empty,
  );
  const [error, setError] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const problems = tried ? validateCatalog(form) : {};
  const set = (key: keyof CatalogForm) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (Object.keys(validateCatalog(form)).length) return;
    setBusy(true);
    setError(null);
    try {
      const body = {
        departmentId,
        catalogId: catalog?.catalogId,
        name: form.name.trim(),
        catalogType: form.catalogType.trim() || null,
        catalogVersion: form.catalogVersion.trim() || null,
        language: form.language || undefined,
        currency: form.currency || undefined,
      };
      await saveCatalog.mutateAsync(body);
      announce(catalog ? t('catalogs.updated', { name: body.name }) : t('catalogs.created', { name: body.name }));
      onClose();
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  const problem = (key: keyof CatalogForm) => (problems[key] ? t(`problem.${problems[key]!}`) : null);
  return (
    <Dialog
      title={catalog ? t('catalogs.editTitle', { name: catalog.name }) : t('catalogs.createTitle')}
      open={open}
      onClose={onClose}
    >
      <form className="stack" onSubmit={submit} noValidate>
        <FormField label={t('field.name')} problem={problem('name')}>
          {(p) => <input {...p} value={form.name} onChange={set('name')} required autoFocus />}
        </FormField>
        <div className="row">
          <FormField label={t('field.catalogType')} problem={problem('catalogType')}>
            {(p) => (
              <select {...p} value={form.catalogType} onChange={set('catalogType')}>
                <option value="full">{t('catalogs.type.full')}</option>
                <option value="update">{t('catalogs.type.update')}</option>
                <option value="">{t('common.none')}</option>
              </select>
            )}
          </FormField>
          <FormField label={t('field.catalogVersion')} problem={problem('catalogVersion')}>
            {(p) => <input {...p} value={form.catalogVersion} onChange={set('catalogVersion')} placeholder="2027.1" />}
          </FormField>
        </div>
        <div className="row">
          <FormField label={t('field.language')} problem={problem('language')} hint={t('catalogs.languageHint')}>
            {(p) => <input {...p} value={form.language} onChange={set('language')} maxLength={3} />}
          </FormField>
          <FormField label={t('field.currency')} problem={problem('currency')} hint={t('catalogs.currencyHint')}>
            {(p) => (
              <input
                {...p}
                value={form.currency}
                onChange={(e) => setForm({ ...form, currency: e.target.value.toUpperCase() })}
                maxLength={3}
              />
            )}
          </FormField>
        </div>
        <ErrorText message={error} />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? t('common.working') : t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
