import { LANGS, useI18n, type Lang } from '../i18n/i18n';

const NAMES: Record<Lang, string> = { de: 'Deutsch', en: 'English' };

export function LanguageSwitch() {
  const { lang, setLang, t } = useI18n();
  return (
    <label className="inline-field">
      <span className="visually-hidden">{t('app.language')}</span>
      <select value={lang} onChange={(e) => setLang(e.target.value as Lang)}>
        {LANGS.map((l) => (
          <option key={l} value={l} lang={l}>
            {NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
