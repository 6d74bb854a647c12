import { useState, type FormEvent } from 'react';
import { describeError } from '../api/errors';
import { useSaveTemplate } from '../api/mutations';
import { EXPORT_TYPES, PRODUCT_STATUSES, type ExportTemplate, type TemplateOptions } from '../api/models';
import { useAnnounce } from '../components/Announcer';
import { Dialog } from '../components/Dialog';
import { ErrorText } from '../components/ErrorText';
import { FormField } from '../components/FormField';
import { useI18n } from '../i18n/i18n';

const SYSTEMS = ['ETIM', 'ECLASS', 'PROFICLASS'] as const;

function toggle<T>(list: T[] | undefined, item: T, all: readonly T[]): T[] {
  const current = list ?? [...all];
  return current.includes(item) ? current.filter((x) => x !== item) : [...current, item];
}

/** Create or edit an export template: format, language and the options the exporters read. */
export function TemplateDialog({ template, onClose }: { template: ExportTemplate | null; onClose: () => void }) {
  const { t } = useI18n();
  const saveTemplate = useSaveTemplate();
  const announce = useAnnounce();
  const [name, setName] = useState(template?.name ?? '');
  const [exportType, setExportType] = useState(template?.exportType ?? 'BMEcat');
  const [language, setLanguage] = useState(template?.language ?? 'deu');
  const [options, setOptions] = useState<TemplateOptions>(template?.options ?? {});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const bmecat = exportType.startsWith('BMEcat');
  const set = <K extends keyof TemplateOptions>(key: K, value: TemplateOptions[K]) =>
    setOptions({ ...options, [key]: value });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) {
      setError(t('problem.required'));
      return;
    }
    setBusy(true);
    setError(null);
    const clean = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== '' && v !== undefined));
    if (exportType !== 'BMEcat') delete clean.namespace;
    try {
      await saveTemplate.mutateAsync({
        templateId: template?.templateId,
        name: name.trim(),
        exportType,
        language,
        options: clean,
      });
      announce(t('form.saved'));
      onClose();
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      title={template ? t('templates.editTitle', { name: template.name }) : t('templates.createTitle')}
      open
      onClose={onClose}
      wide
    >
      <form className="form-grid" onSubmit={submit} noValidate>
        <FormField label={t('field.name')}>
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoFocus />}
        </FormField>
        <FormField label={t('exports.format')}>
          {(p) => (
            <select {...p} value={exportType} onChange={(e) => setExportType(e.target.value)}>
              {EXPORT_TYPES.map((f) => (
                <option key={f} value={f}>
                  {t(`exports.type.${f}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label={t('field.language')} hint={t('catalogs.languageHint')}>
          {(p) => <input {...p} value={language} maxLength={3} onChange={(e) => setLanguage(e.target.value)} />}
        </FormField>
        <FormField label={t('templates.priceType')} hint={t('templates.priceTypeHint')}>
          {(p) => <input {...p} value={options.priceType ?? ''} onChange={(e) => set('priceType', e.target.value)} />}
        </FormField>
        <fieldset className="plain-fieldset">
          <legend>{t('templates.systems')}</legend>
          {SYSTEMS.map((s) => (
            <label key={s} className="check-field">
              <input
                type="checkbox"
                checked={(options.classificationSystems ?? SYSTEMS).includes(s)}
                onChange={() => set('classificationSystems', toggle(options.classificationSystems, s, SYSTEMS))}
              />
              <span>{s}</span>
            </label>
          ))}
        </fieldset>
        <fieldset className="plain-fieldset">
          <legend>{t('templates.statuses')}</legend>
          {PRODUCT_STATUSES.map((s) => (
            <label key={s} className="check-field">
              <input
                type="checkbox"
                checked={(options.statuses ?? PRODUCT_STATUSES).includes(s)}
                onChange={() => set('statuses', toggle(options.statuses, s, PRODUCT_STATUSES))}
              />
              <span>{t(`status.${s}`)}</span>
            </label>
          ))}
        </fieldset>
        <label className="check-field">
          <input
            type="checkbox"
            checked={options.includeAttributes ?? true}
            onChange={(e) => set('includeAttributes', e.target.checked)}
          />
          <span>{t('templates.includeAttributes')}</span>
        </label>
        <label className="check-field">
          <input
            type="checkbox"
            checked={options.inheritFromMaster ?? true}
            onChange={(e) => set('inheritFromMaster', e.target.checked)}
          />
          <span>{t('templates.inherit')}</span>
        </label>
        {bmecat && (
          <>
            <FormField label={t('templates.buyerName')}>
              {(p) => (
                <input {...p} value={options.buyerName ?? ''} onChange={(e) => set('buyerName', e.target.value)} />
              )}
            </FormField>
            <FormField label={t('templates.mimeRoot')} hint="https://…">
              {(p) => (
                <input
                  {...p}
                  type="url"
                  value={options.mimeRoot ?? ''}
                  onChange={(e) => set('mimeRoot', e.target.value)}
                />
              )}
            </FormField>
          </>
        )}
        {exportType === 'BMEcat' && (
          <FormField label={t('templates.namespace')}>
            {(p) => (
              <select
                {...p}
                value={options.namespace ?? '2005fd'}
                onChange={(e) => set('namespace', e.target.value as '2005fd')}
              >
                <option value="2005fd">BMEcat 2005 (2005fd)</option>
                <option value="2005">openTRANS 2.1 (2005)</option>
              </select>
            )}
          </FormField>
        )}
        <div className="span-2 form-actions">
          <ErrorText message={error} />
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
