import { useState, type FormEvent } from 'react';
import { describeError } from '../api/errors';
import { useContentLanguages } from '../api/hooks';
import { useSaveCatalog } from '../api/mutations';
import type { Catalog } from '../api/models';
import { Dialog } from '../components/Dialog';
import { ErrorText } from '../components/ErrorText';
import { FormField } from '../components/FormField';
import { useAnnounce } from '../components/Announcer';
import { useI18n } from '../i18n/i18n';
import { catalogLanguages } from '../lib/content-language';
import { validateCatalog, type CatalogForm } from '../lib/validate';
import { useSession } from '../session/session';

const empty: CatalogForm = { name: '', catalogType: 'full', catalogVersion: '', language: 'deu', currency: 'EUR' };

/**
 * Create (catalog = null) or edit a catalog: name, type, version, default language, the languages
 * it publishes (docs/languages.md: each enabled for the company), currency.
 */
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
  const companyLanguages = useContentLanguages();
  const [form, setForm] = useState<CatalogForm>(() =>
    catalog
      ? {
          name: catalog.name,
          catalogType: catalog.catalogType ?? '',
          catalogVersion: catalog.catalogVersion ?? '',
          language: catalog.language,
          currency: catalog.currency,
        }
      : { ...empty, language: companyLanguages.data?.defaultLanguage ?? empty.language },
  );
  const [published, setPublished] = useState<string[]>(() => catalog?.languages ?? []);
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
        languages: form.language ? catalogLanguages(form.language, published) : undefined,
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

  // The company's enabled languages, plus any the catalog names that are no longer enabled (shown by code).
  const enabled = companyLanguages.data?.languages ?? [];
  const languageOptions = [
    ...enabled.map((l) => ({ code: l.code, label: `${l.nativeName} (${l.code})` })),
    ...[form.language, ...published]
      .filter((code, i, all) => code && all.indexOf(code) === i && !enabled.some((l) => l.code === code))
      .map((code) => ({ code, label: code })),
  ];
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
            {(p) =>
              languageOptions.length ? (
                <select {...p} value={form.language} onChange={set('language')}>
                  {languageOptions.map((l) => (
                    <option key={l.code} value={l.code}>
                      {l.label}
                    </option>
                  ))}
                </select>
              ) : (
                <input {...p} value={form.language} onChange={set('language')} maxLength={3} />
              )
            }
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
        {languageOptions.length > 1 && (
          <fieldset className="plain-fieldset">
            <legend>{t('catalogs.languages')}</legend>
            {languageOptions.map((l) => (
              <label key={l.code} className="check-field">
                <input
                  type="checkbox"
                  checked={l.code === form.language || published.includes(l.code)}
                  disabled={l.code === form.language}
                  onChange={(e) =>
                    setPublished(
                      e.target.checked ? [...published, l.code] : published.filter((code) => code !== l.code),
                    )
                  }
                />
                <span>{l.label}</span>
              </label>
            ))}
          </fieldset>
        )}
        {languageOptions.length === 1 && <p className="muted">{t('catalogs.oneLanguage')}</p>}
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
