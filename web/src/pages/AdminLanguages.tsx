import { useState, type FormEvent } from 'react';
import { describeError } from '../api/errors';
import { useContentLanguages } from '../api/hooks';
import { useSetLanguages } from '../api/mutations';
import type { CompanyLanguages } from '../api/models';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { draftChanged, type LanguageDraft, languagesBody, toggleEnabled } from '../lib/content-language';

const savedOf = (data: CompanyLanguages): LanguageDraft => ({
  defaultLanguage: data.defaultLanguage,
  languages: data.languages.map((l) => l.code),
});

/**
 * Administration: the company's content languages (GetLanguages / SetLanguages, docs/languages.md).
 * Languages are ticked on or off and one enabled language is the default; the API refuses to
 * disable a language a catalog still publishes (409, shown under the form).
 */
export function AdminLanguages() {
  const { t } = useI18n();
  const languages = useContentLanguages();
  return (
    <section aria-labelledby="admin-languages">
      <h2 id="admin-languages">{t('languages.title')}</h2>
      <p className="muted">{t('languages.intro')}</p>
      <QueryState isPending={languages.isPending} error={languages.error} unsupportedText={t('languages.unsupported')}>
        {languages.data && <LanguagesForm key={JSON.stringify(savedOf(languages.data))} data={languages.data} />}
      </QueryState>
    </section>
  );
}

function LanguagesForm({ data }: { data: CompanyLanguages }) {
  const { t } = useI18n();
  const setLanguages = useSetLanguages();
  const announce = useAnnounce();
  const [draft, setDraft] = useState<LanguageDraft>(() => savedOf(data));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const enabled = new Set(draft.languages);
  const changed = draftChanged(savedOf(data), draft);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await setLanguages.mutateAsync(languagesBody(draft));
      announce(t('languages.saved'));
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <label className="field">
        <span>{t('languages.default')}</span>
        <select
          value={draft.defaultLanguage}
          onChange={(e) => setDraft({ ...toggleEnabled(draft, e.target.value, true), defaultLanguage: e.target.value })}
        >
          {data.available
            .filter((l) => enabled.has(l.code))
            .map((l) => (
              <option key={l.code} value={l.code}>
                {l.nativeName} ({l.code})
              </option>
            ))}
        </select>
      </label>
      <fieldset className="plain-fieldset">
        <legend>{t('languages.enabled')}</legend>
        <div className="language-checks">
          {data.available.map((l) => (
            <label key={l.code} className="check-field" lang={l.tag}>
              <input
                type="checkbox"
                checked={enabled.has(l.code)}
                disabled={l.code === draft.defaultLanguage}
                onChange={(e) => setDraft(toggleEnabled(draft, l.code, e.target.checked))}
              />
              <span>
                {l.nativeName} <span className="muted">({l.code})</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <ErrorText message={error} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || !changed}>
          {busy ? t('common.working') : t('languages.save')}
        </button>
      </div>
    </form>
  );
}
