import { useState, type FormEvent } from 'react';
import { describeError } from '../api/errors';
import { useAttributes, useContentLanguages, useProductIn } from '../api/hooks';
import { useRefreshProduct, useSetValue, useUpdateProduct } from '../api/mutations';
import type { ProductDetail } from '../api/models';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { languageName, translationPatch } from '../lib/content-language';
import { missingCount, type TranslationRow, translationRows } from '../lib/translation-rows';
import { useSession } from '../session/session';

/**
 * The product's texts in two languages side by side (docs/languages.md): the catalog's default
 * language on the left (read-only: the Fields tab in that language edits it), the chosen language
 * on the right, each missing translation marked. Name, description and keywords are saved through
 * UpdateProduct's `translations`, localizable attributes through SetValue with `language`.
 */
export function TranslationForm({
  product,
  defaultLanguage,
  language,
}: {
  product: ProductDetail;
  defaultLanguage: string;
  language: string;
}) {
  const translated = useProductIn(product.productId, language);
  const attributes = useAttributes().data?.items;
  const declared = (attributes ?? []).filter((a) => a.localizable).map((a) => a.code);
  const rows = translated.data ? translationRows(product, translated.data, declared) : [];
  return (
    <QueryState isPending={translated.isPending} error={translated.error}>
      {translated.data && (
        <Rows
          // a fresh form once a changed state is read back (drafts start from what is stored);
          // a refetch that finds the same texts keeps what is being typed
          key={JSON.stringify(rows.map((r) => [r.field, r.source, r.target, r.missing]))}
          product={product}
          rows={rows}
          defaultLanguage={defaultLanguage}
          language={language}
        />
      )}
    </QueryState>
  );
}

function Rows({
  product,
  rows,
  defaultLanguage,
  language,
}: {
  product: ProductDetail;
  rows: TranslationRow[];
  defaultLanguage: string;
  language: string;
}) {
  const { t } = useI18n();
  const { departmentId, account } = useSession();
  const known = useContentLanguages().data?.available ?? [];
  const attributes = useAttributes().data?.items ?? [];
  const updateProduct = useUpdateProduct();
  const setValue = useSetValue();
  const refreshProduct = useRefreshProduct();
  const announce = useAnnounce();
  const [drafts, setDrafts] = useState<Record<string, string>>(() =>
    Object.fromEntries(rows.map((r) => [r.field, r.target])),
  );
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sourceName = languageName(defaultLanguage, known);
  const targetName = languageName(language, known);
  const labelOf = (r: TranslationRow) =>
    r.code ? (attributes.find((a) => a.code === r.code)?.name ?? r.code) : t(`field.${r.field as 'name'}`);
  const missing = missingCount(rows);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const next: Record<string, string> = {};
    const texts = rows.filter((r) => !r.code);
    const patch = translationPatch(
      Object.fromEntries(texts.map((r) => [r.field, r.target || null])),
      Object.fromEntries(texts.map((r) => [r.field, drafts[r.field] ?? ''])),
    );
    // An editor saves the texts in one UpdateProduct (all or nothing); a translator's role permits
    // texts only (`text.write`, docs/teams.md), so each goes through SetValue in its language.
    if (patch && account.permissions.includes('product.write')) {
      try {
        await updateProduct.mutateAsync({
          departmentId,
          catalogId: product.catalogId,
          productId: product.productId,
          translations: { [language]: patch },
        });
      } catch (err) {
        for (const field of Object.keys(patch)) next[field] = describeError(err, t);
      }
    } else {
      for (const [field, text] of Object.entries(patch ?? {})) {
        try {
          await setValue.mutateAsync({
            departmentId,
            elementId: product.productId,
            field,
            value: text ?? '',
            language,
          });
        } catch (err) {
          next[field] = describeError(err, t);
        }
      }
    }
    for (const r of rows.filter((row) => row.code && (drafts[row.field] ?? '') !== row.target)) {
      try {
        await setValue.mutateAsync({
          departmentId,
          elementId: product.productId,
          field: r.code!,
          value: drafts[r.field] ?? '',
          language,
        });
      } catch (err) {
        next[r.field] = describeError(err, t);
      }
    }
    setProblems(next);
    setBusy(false);
    if (Object.keys(next).length) setError(t('form.someNotSaved', { count: Object.keys(next).length }));
    await refreshProduct(product.productId);
    if (!Object.keys(next).length) announce(t('form.saved'));
  }

  return (
    <form className="stack" onSubmit={submit} noValidate aria-labelledby="translate-title">
      <h2 id="translate-title" className="visually-hidden">
        {t('translate.title', { from: sourceName, to: targetName })}
      </h2>
      <p className={missing ? 'notice' : 'muted'} role="status">
        {missing
          ? t('translate.missingCount', { count: missing, language: targetName })
          : t('translate.complete', { language: targetName })}
      </p>
      <div className="translate-grid">
        <div className="translate-head" aria-hidden="true">
          <span>{t('translate.source', { language: sourceName })}</span>
          <span>{targetName}</span>
        </div>
        {rows.map((r) => (
          <TranslationField
            key={r.field}
            row={r}
            label={labelOf(r)}
            sourceName={sourceName}
            targetName={targetName}
            multiline={r.field === 'description'}
            value={drafts[r.field] ?? ''}
            onChange={(v) => setDrafts({ ...drafts, [r.field]: v })}
            problem={problems[r.field] ?? null}
          />
        ))}
      </div>
      <p className="muted">{t('translate.neutral', { language: sourceName })}</p>
      <div className="form-actions">
        <ErrorText message={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('common.working') : t('translate.save', { language: targetName })}
        </button>
      </div>
    </form>
  );
}

/** One localizable field: the default-language text (read-only) beside its translation. */
function TranslationField({
  row,
  label,
  sourceName,
  targetName,
  multiline,
  value,
  onChange,
  problem,
}: {
  row: TranslationRow;
  label: string;
  sourceName: string;
  targetName: string;
  multiline: boolean;
  value: string;
  onChange: (value: string) => void;
  problem: string | null;
}) {
  const { t } = useI18n();
  const id = `translate-${row.field.replace(/\W/g, '-')}`;
  const describedBy = [row.missing ? `${id}-missing` : null, problem ? `${id}-problem` : null]
    .filter(Boolean)
    .join(' ');
  const common = { 'aria-describedby': describedBy || undefined, 'aria-invalid': Boolean(problem) };
  return (
    <div className="translate-row">
      <div className="field">
        <label htmlFor={`${id}-source`}>{t('translate.fieldIn', { field: label, language: sourceName })}</label>
        {multiline ? (
          <textarea id={`${id}-source`} rows={5} value={row.source} readOnly />
        ) : (
          <input id={`${id}-source`} value={row.source} readOnly />
        )}
      </div>
      <div className="field">
        <span className="translate-label">
          <label htmlFor={id}>{t('translate.fieldIn', { field: label, language: targetName })}</label>
          {row.missing && (
            <span id={`${id}-missing`} className="badge badge-missing">
              {t('translate.missing')}
            </span>
          )}
        </span>
        {multiline ? (
          <textarea
            id={id}
            name={row.field}
            rows={5}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            {...common}
          />
        ) : (
          <input id={id} name={row.field} value={value} onChange={(e) => onChange(e.target.value)} {...common} />
        )}
        {problem && (
          <small id={`${id}-problem`} className="field-problem" role="alert">
            {problem}
          </small>
        )}
      </div>
    </div>
  );
}
