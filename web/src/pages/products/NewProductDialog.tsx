import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { describeError } from '../../api/errors';
import { useAddProduct } from '../../api/mutations';
import type { Product } from '../../api/models';
import { Dialog } from '../../components/Dialog';
import { ErrorText } from '../../components/ErrorText';
import { FormField } from '../../components/FormField';
import { useI18n } from '../../i18n/i18n';
import { validateProduct } from '../../lib/validate';
import { useSession } from '../../session/session';

/** SKU and name of a new product (or of a variant when `parentId` is given), then its editor. */
export function NewProductDialog({
  catalogId,
  parentId,
  onClose,
  onCreated,
}: {
  catalogId: string;
  parentId?: string;
  onClose: () => void;
  onCreated?: (p: Product) => void;
}) {
  const { t } = useI18n();
  const { departmentId } = useSession();
  const navigate = useNavigate();
  const addProduct = useAddProduct();
  const [sku, setSku] = useState('');
  const [name, setName] = useState('');
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const problems = tried ? validateProduct({ sku }, { requireSku: true }) : {};

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (Object.keys(validateProduct({ sku }, { requireSku: true })).length) return;
    setBusy(true);
    setError(null);
    try {
      const product = await addProduct.mutateAsync({
        departmentId,
        catalogId,
        parentId,
        sku: sku.trim(),
        name: name.trim() || null,
        status: 'draft',
      });
      if (onCreated) onCreated(product);
      else navigate(`/products/${product.productId}`);
      onClose();
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={parentId ? t('variants.createTitle') : t('products.createTitle')} open onClose={onClose}>
      <form className="stack" onSubmit={submit} noValidate>
        <FormField label={t('field.sku')} problem={problems.sku ? t(`problem.${problems.sku}`) : null}>
          {(p) => <input {...p} value={sku} onChange={(e) => setSku(e.target.value)} required autoFocus />}
        </FormField>
        <FormField label={t('field.name')}>
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
        </FormField>
        <ErrorText message={error} />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? t('common.working') : t('common.create')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
