import { useState, type FormEvent } from 'react';
import { useAttributes } from '../api/hooks';
import { useRefreshProduct, useSetValue } from '../api/mutations';
import type { ProductDetail } from '../api/models';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { FormField } from '../components/FormField';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { attributeKind, displayNumber } from '../lib/values';
import { useSession } from '../session/session';
import { saveValues } from './saveValues';
import { ValueInput } from './ValueInput';

/** The company's attributes as typed inputs; changed values are saved through SetValue. */
export function AttributesForm({ product }: { product: ProductDetail }) {
  const { t, lang } = useI18n();
  const { departmentId } = useSession();
  const attributes = useAttributes();
  const setValue = useSetValue();
  const refreshProduct = useRefreshProduct();
  const announce = useAnnounce();
  const current = (code: string) => product.values.find((v) => v.code === code)?.value ?? '';
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const items = attributes.data?.items ?? [];
  const draftOf = (code: string, type: string) =>
    drafts[code] ?? (type === 'number' ? displayNumber(current(code), lang) : current(code));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setSummary(null);
    const edits = items
      .filter((a) => drafts[a.code] !== undefined)
      .map((a) => ({
        field: a.code,
        kind: attributeKind(a.type),
        draft: drafts[a.code]!,
        original: current(a.code),
        unit: a.unit,
        allowed: a.enumValues ?? undefined,
      }));
    const result = await saveValues(setValue.mutateAsync, departmentId, product.productId, edits, t);
    setProblems(result.problems);
    setBusy(false);
    await refreshProduct(product.productId);
    if (Object.keys(result.problems).length)
      setSummary(t('form.someNotSaved', { count: Object.keys(result.problems).length }));
    else {
      setDrafts({});
      announce(t('form.saved'));
    }
  }

  return (
    <QueryState isPending={attributes.isPending} error={attributes.error}>
      {items.length === 0 ? (
        <p className="empty">{t('attributes.none')}</p>
      ) : (
        <form className="form-grid" onSubmit={submit} noValidate>
          {items.map((a) => (
            <FormField key={a.code} label={a.name} hint={a.code} problem={problems[a.code]}>
              {(p) => (
                <ValueInput
                  id={p.id}
                  name={`values.${a.code}`}
                  describedBy={p['aria-describedby']}
                  invalid={p['aria-invalid']}
                  label={a.name}
                  kind={attributeKind(a.type)}
                  unit={a.unit}
                  options={a.enumValues?.map((v) => ({ value: v, label: v }))}
                  value={draftOf(a.code, a.type)}
                  onChange={(v) => setDrafts({ ...drafts, [a.code]: v })}
                />
              )}
            </FormField>
          ))}
          <div className="span-2 form-actions">
            <ErrorText message={summary} />
            <button type="submit" className="primary" disabled={busy || Object.keys(drafts).length === 0}>
              {busy ? t('common.working') : t('common.save')}
            </button>
          </div>
        </form>
      )}
    </QueryState>
  );
}
