import { useState, type FormEvent } from 'react';
import { describeError } from '../api/errors';
import { useUpdateProduct } from '../api/mutations';
import { PRODUCT_STATUSES, type ProductDetail } from '../api/models';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { FormField } from '../components/FormField';
import { useI18n } from '../i18n/i18n';
import type { MessageKey } from '../i18n/de';
import { displayNumber } from '../lib/values';
import { productPayload, validateProduct, type ProductForm } from '../lib/validate';
import { useSession } from '../session/session';

const TEXT_FIELDS: { key: keyof ProductForm; label: MessageKey; hint?: MessageKey; wide?: boolean }[] = [
  { key: 'sku', label: 'field.sku' },
  { key: 'name', label: 'field.name', wide: true },
  { key: 'gtin', label: 'field.gtin', hint: 'hint.gtin' },
  { key: 'manufacturerName', label: 'field.manufacturerName' },
  { key: 'manufacturerPid', label: 'field.manufacturerPid' },
  { key: 'price', label: 'field.price', hint: 'hint.price' },
  { key: 'priceQuantity', label: 'field.priceQuantity' },
  { key: 'unit', label: 'field.unit', hint: 'hint.unit' },
  { key: 'contentUnit', label: 'field.contentUnit', hint: 'hint.contentUnit' },
  { key: 'contentPerUnit', label: 'field.contentPerUnit' },
  { key: 'quantityMin', label: 'field.quantityMin' },
  { key: 'quantityInterval', label: 'field.quantityInterval' },
  { key: 'deliveryTimeDays', label: 'field.deliveryTimeDays' },
  { key: 'keywords', label: 'field.keywords', wide: true },
];

function toForm(p: ProductDetail, lang: 'de' | 'en'): ProductForm {
  const s = (v: string | number | null) => (v === null ? '' : String(v));
  return {
    sku: s(p.sku),
    name: s(p.name),
    gtin: s(p.gtin),
    price: displayNumber(p.price, lang),
    unit: s(p.unit),
    priceQuantity: s(p.priceQuantity),
    contentUnit: s(p.contentUnit),
    contentPerUnit: displayNumber(p.contentPerUnit, lang),
    quantityMin: displayNumber(p.quantityMin, lang),
    quantityInterval: displayNumber(p.quantityInterval, lang),
    deliveryTimeDays: s(p.deliveryTimeDays),
    manufacturerName: s(p.manufacturerName),
    manufacturerPid: s(p.manufacturerPid),
    description: s(p.description),
    keywords: s(p.keywords),
    status: p.status,
  };
}

/** The built-in fields of a product, saved together through UpdateProduct. */
export function FieldsForm({ product }: { product: ProductDetail }) {
  const { t, lang } = useI18n();
  const { departmentId } = useSession();
  const updateProduct = useUpdateProduct();
  const announce = useAnnounce();
  const [form, setForm] = useState<ProductForm>(() => toForm(product, lang));
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const problems = tried ? validateProduct(form, { requireSku: true }) : {};
  const set = (key: keyof ProductForm) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (Object.keys(validateProduct(form, { requireSku: true })).length) {
      setError(t('form.fixProblems'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await updateProduct.mutateAsync({
        departmentId,
        catalogId: product.catalogId,
        productId: product.productId,
        ...productPayload(form),
      });
      announce(t('form.saved'));
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form-grid" onSubmit={submit} noValidate>
      {TEXT_FIELDS.map((f) => (
        <div key={f.key} className={f.wide ? 'span-2' : undefined}>
          <FormField
            label={t(f.label)}
            hint={f.hint ? t(f.hint) : undefined}
            problem={problems[f.key] ? t(`problem.${problems[f.key]!}`) : null}
          >
            {(p) => <input {...p} name={f.key} value={form[f.key]} onChange={set(f.key)} />}
          </FormField>
        </div>
      ))}
      <FormField label={t('field.status')}>
        {(p) => (
          <select {...p} value={form.status} onChange={set('status')}>
            {PRODUCT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <div className="span-2">
        <FormField label={t('field.description')}>
          {(p) => (
            <textarea {...p} name="description" rows={6} value={form.description} onChange={set('description')} />
          )}
        </FormField>
      </div>
      <div className="span-2 form-actions">
        <ErrorText message={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('common.working') : t('common.save')}
        </button>
      </div>
    </form>
  );
}
