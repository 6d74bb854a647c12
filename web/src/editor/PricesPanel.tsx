import { useState, type FormEvent } from 'react';
import { describeError } from '../api/errors';
import type { ProductDetail } from '../api/models';
import { useSetPrices } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';
import { COLUMNS, priceOf, type Row, rowOf, TYPES } from './price-rows';

/**
 * The product's price list as a table (docs/web.md): one row per price, tiers by "from
 * quantity". Saving sends the whole list (SetPrices); removing the last row asks the server to
 * clear the list, which it does only because the request says so.
 */
export function PricesPanel({ product }: { product: ProductDetail }) {
  const { t } = useI18n();
  const { departmentId } = useSession();
  const setPrices = useSetPrices();
  const announce = useAnnounce();
  const [rows, setRows] = useState<Row[]>(() => product.prices.map(rowOf));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const edit = (i: number, key: (typeof COLUMNS)[number], value: string) =>
    setRows((all) => all.map((r, j) => (j === i ? { ...r, [key]: value } : r)));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const prices = rows.map(priceOf);
      const saved = await setPrices.mutateAsync({
        departmentId,
        productId: product.productId,
        prices,
        clear: prices.length === 0,
      });
      setRows(saved.prices.map(rowOf));
      announce(t('form.saved'));
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-label={t('prices.title')}>
      <p className="muted">{t('prices.help')}</p>
      <table className="grid">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c} scope="col">
                {t(`prices.${c}`)}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">{t('common.delete')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id; a row is its position in the list
            <tr key={i}>
              {COLUMNS.map((c) => (
                <td key={c}>
                  <input
                    aria-label={`${t(`prices.${c}`)} ${i + 1}`}
                    value={row[c]}
                    list={c === 'type' ? 'price-types' : undefined}
                    type={c === 'validFrom' || c === 'validTo' ? 'date' : 'text'}
                    size={c === 'base' ? 8 : undefined}
                    placeholder={c === 'base' ? t('prices.basePlaceholder') : undefined}
                    onChange={(e) => edit(i, c, e.target.value)}
                  />
                </td>
              ))}
              <td>
                <button type="button" className="danger-quiet" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                  {t('common.delete')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <datalist id="price-types">
        {TYPES.map((type) => (
          <option key={type} value={type} />
        ))}
      </datalist>
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            setRows([
              ...rows,
              {
                type: 'net_list',
                amount: '',
                currency: rows.at(-1)?.currency ?? 'EUR',
                tax: '',
                lowerBound: '',
                territory: '',
                validFrom: '',
                validTo: '',
                base: '',
                kept: { factor: null, daily: false, baseFactor: null },
              },
            ])
          }
        >
          {t('prices.add')}
        </button>
        <button type="submit" disabled={busy}>
          {t('common.save')}
        </button>
      </div>
      <ErrorText message={error} />
    </form>
  );
}
