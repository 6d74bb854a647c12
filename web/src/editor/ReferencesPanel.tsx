import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { apiGet } from '../api/client';
import { describeError } from '../api/errors';
import { keys } from '../api/keys';
import type { ProductDetail } from '../api/models';
import { useSetReferences } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { REFERENCE_TYPES } from '../../../src/model/reference-types';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';
import { type ReferenceRow, referencesOfRows } from './reference-rows';

type Row = ReferenceRow;

/** Stable keys for rows being edited (a row's index changes when one above it is removed). */
let nextRowId = 0;

/**
 * A product's references (Catalog/GetReferences): the outgoing list, editable and saved whole
 * with SetReferences (an emptied list is sent with `clear: true`), pending targets marked; and
 * the products that refer to this one, read-only, each a link to its editor.
 */
export function ReferencesPanel({ product }: { product: ProductDetail }) {
  const refs = useQuery({
    queryKey: keys.references(product.productId),
    queryFn: () => apiGet('Catalog/GetReferences', { productId: product.productId }),
  });
  return (
    <QueryState isPending={refs.isPending} error={refs.error}>
      {refs.data && <ReferencesForm key={refs.dataUpdatedAt} product={product} data={refs.data} />}
    </QueryState>
  );
}

type Data = NonNullable<Awaited<ReturnType<typeof apiGet<'Catalog/GetReferences'>>>>;

function ReferencesForm({ product, data }: { product: ProductDetail; data: Data }) {
  const { t } = useI18n();
  const { departmentId } = useSession();
  const announce = useAnnounce();
  const setReferences = useSetReferences();
  const [rows, setRows] = useState<Row[]>(() =>
    data.outgoing.map((r) => ({
      id: nextRowId++,
      type: r.type,
      targetSku: r.targetSku,
      targetKind: r.targetKind,
      quantity: r.quantity?.toString() ?? '',
    })),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pending = new Set(data.outgoing.filter((r) => r.pending).map((r) => r.targetSku));
  const change = (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const references = referencesOfRows(rows);
      await setReferences.mutateAsync({
        departmentId,
        productId: product.productId,
        references,
        ...(references.length === 0 ? { clear: true } : {}),
      });
      announce(t('form.saved'));
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="references">
      <h3>{t('references.outgoing')}</h3>
      {rows.length === 0 && <p className="empty">{t('references.none')}</p>}
      {rows.map((r, i) => (
        <div className="form-row" key={r.id}>
          <select
            aria-label={t('references.type')}
            value={r.type}
            onChange={(e) => change(i, { type: e.target.value as Row['type'] })}
          >
            {REFERENCE_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
          <input
            aria-label={t('references.targetSku')}
            value={r.targetSku}
            onChange={(e) => change(i, { targetSku: e.target.value })}
          />
          <input
            aria-label={t('references.quantity')}
            type="number"
            min={1}
            step={1}
            value={r.quantity}
            onChange={(e) => change(i, { quantity: e.target.value })}
          />
          {pending.has(r.targetSku) && <span className="badge">{t('references.pending')}</span>}
          <button type="button" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
            {t('references.remove')}
          </button>
        </div>
      ))}
      <ErrorText message={error} />
      <div className="form-actions">
        <button
          type="button"
          onClick={() =>
            setRows([...rows, { id: nextRowId++, type: 'accessories', targetSku: '', targetKind: 'sku', quantity: '' }])
          }
        >
          {t('references.add')}
        </button>
        <button type="button" className="primary" onClick={() => void save()} disabled={busy}>
          {busy ? t('common.working') : t('common.save')}
        </button>
      </div>
      <h3>{t('references.incoming')}</h3>
      {data.incoming.length === 0 ? (
        <p className="empty">{t('references.none')}</p>
      ) : (
        <ul>
          {data.incoming.map((r) => (
            <li key={`${r.productId}-${r.type}`}>
              <Link to={`/products/${r.productId}`}>{r.sku ?? r.productId}</Link> {r.name} · {r.type}
              {r.quantity !== null ? ` × ${r.quantity}` : ''}
            </li>
          ))}
        </ul>
      )}
      {data.incomingTruncated && <p className="hint">{t('references.more')}</p>}
    </div>
  );
}
