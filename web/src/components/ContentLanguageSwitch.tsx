import { useContentLanguages } from '../api/hooks';
import { useI18n } from '../i18n/i18n';
import { languageName } from '../lib/content-language';

/**
 * The content language a screen shows product data in (docs/languages.md): one of the catalog's
 * published languages, default first. Not the interface language (EN/DE in the top bar).
 * Renders nothing for a catalog with one language.
 */
export function ContentLanguageSwitch({
  catalog,
  value,
  onChange,
}: {
  catalog: { language: string; languages: readonly string[] };
  value: string;
  onChange: (code: string) => void;
}) {
  const { t } = useI18n();
  const known = useContentLanguages().data?.available ?? [];
  if (catalog.languages.length < 2) return null;
  return (
    <label className="inline-field">
      <span>{t('contentLanguage.label')}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {catalog.languages.map((code) => (
          <option key={code} value={code}>
            {languageName(code, known)}
            {code === catalog.language ? ` · ${t('contentLanguage.default')}` : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
