import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { apiGet } from '../api/client';
import { describeError } from '../api/errors';
import { keys } from '../api/keys';
import type { BodyOf } from '../api/operations';
import type { ProductDetail } from '../api/models';
import { useSetFeatureBlocks } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';
import { featureTree, headingGroups, keptParts } from './feature-tree';

type BlockIn = BodyOf<'Catalog/SetFeatureBlocks'>['featureBlocks'][number];
type FeatureIn = BlockIn['features'][number];
/**
 * One feature as edited: name, values (one per line) and unit; `rest` keeps what the form does
 * not show (eCl@ss Advanced FT_ID / FID / FPARENT_ID, variants, order …) so saving keeps it.
 */
type FeatureRow = { id: number; name: string; values: string; unit: string; rest: FeatureIn };
type BlockRow = {
  id: number;
  system: string;
  groupId: string;
  groupName: string;
  rest: BlockIn;
  features: FeatureRow[];
};

/** Stable keys for rows being edited (an index changes when a row above is removed). */
let nextId = 0;

const featureRow = (f: FeatureIn): FeatureRow => ({
  id: nextId++,
  name: f.name ?? '',
  values: (f.values ?? []).join('\n'),
  unit: f.unit ?? '',
  rest: f,
});
const blockRow = (b: BlockIn): BlockRow => ({
  id: nextId++,
  system: b.system,
  groupId: b.groupId ?? '',
  groupName: b.groupName ?? '',
  rest: b,
  features: b.features.map(featureRow),
});
const text = (v: string) => (v.trim() === '' ? undefined : v.trim());

/** A row as SetFeatureBlocks takes it: the shown fields over the kept ones; the server's rules name what is wrong. */
function blockOf(row: BlockRow): BlockIn {
  return {
    ...row.rest,
    system: row.system.trim(),
    groupId: text(row.groupId) ?? null,
    groupName: text(row.groupName) ?? null,
    features: row.features.map((f) => {
      const values = f.values
        .split('\n')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      const { name: _n, values: _v, unit: _u, ...kept } = f.rest;
      return { ...keptParts(kept, values), name: text(f.name), values, unit: text(f.unit) };
    }),
  };
}

/** A tree feature's VALUE_IDREFs with their FVALUE_DETAILS (the chosen block or value), shown beside its name. */
const referenceOf = (f: FeatureIn) =>
  (f.valueIdrefs ?? []).map((ref, i) => (f.details?.[i] ? `${f.details[i]} (${ref})` : ref)).join(', ');

/**
 * The product's feature blocks of other systems (UNSPSC, udf_*, a supplier's own, eCl@ss
 * Advanced trees): read with GetFeatureBlocks, edited block by block (system, group, features
 * with their values), saved whole with SetFeatureBlocks (an emptied list with `clear: true`).
 * An eCl@ss Advanced tree shows each feature indented under its parent and a heading per
 * FEATURE_GROUP (feature-tree.ts); an ETIM modelling class (ETIM-MC) a heading per port with
 * its connection type. The tree's and the modelling class's parts are kept on save.
 */
export function FeatureBlocksPanel({ product }: { product: ProductDetail }) {
  const blocks = useQuery({
    queryKey: keys.featureBlocks(product.productId),
    queryFn: () => apiGet('Catalog/GetFeatureBlocks', { productId: product.productId }),
  });
  return (
    <QueryState isPending={blocks.isPending} error={blocks.error}>
      {blocks.data && <BlocksForm key={blocks.dataUpdatedAt} product={product} initial={blocks.data.featureBlocks} />}
    </QueryState>
  );
}

function BlocksForm({ product, initial }: { product: ProductDetail; initial: BlockIn[] }) {
  const { t } = useI18n();
  const { departmentId } = useSession();
  const announce = useAnnounce();
  const setBlocks = useSetFeatureBlocks();
  const [rows, setRows] = useState<BlockRow[]>(() => initial.map(blockRow));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const changeBlock = (id: number, patch: Partial<BlockRow>) =>
    setRows((all) => all.map((b) => (b.id === id ? { ...b, ...patch } : b)));
  const changeFeature = (block: BlockRow, id: number, patch: Partial<FeatureRow>) =>
    changeBlock(block.id, { features: block.features.map((f) => (f.id === id ? { ...f, ...patch } : f)) });
  const newFeature = (): FeatureRow => ({ id: nextId++, name: '', values: '', unit: '', rest: { name: '' } });

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const featureBlocks = rows.map(blockOf);
      await setBlocks.mutateAsync({
        departmentId,
        productId: product.productId,
        featureBlocks,
        ...(featureBlocks.length === 0 ? { clear: true } : {}),
      });
      announce(t('form.saved'));
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack">
      <p className="muted">{t('blocks.help')}</p>
      {rows.length === 0 && <p className="empty">{t('blocks.none')}</p>}
      {rows.map((b, i) => {
        const label = t('blocks.blockLabel', { n: i + 1, system: b.system || '…' });
        const tree = featureTree(
          b.features.map((f) => f.rest),
          headingGroups(b.system, b.rest.featureGroups ?? [], (port) => t('blocks.port', { port })),
        );
        return (
          <fieldset key={b.id} aria-label={label}>
            <legend>{label}</legend>
            <div className="row">
              <label className="field">
                <span>{t('blocks.system')}</span>
                <input value={b.system} onChange={(e) => changeBlock(b.id, { system: e.target.value })} />
              </label>
              <label className="field">
                <span>{t('blocks.groupId')}</span>
                <input value={b.groupId} onChange={(e) => changeBlock(b.id, { groupId: e.target.value })} />
              </label>
              <label className="field">
                <span>{t('blocks.groupName')}</span>
                <input value={b.groupName} onChange={(e) => changeBlock(b.id, { groupName: e.target.value })} />
              </label>
            </div>
            <table className="grid">
              <thead>
                <tr>
                  <th scope="col">{t('blocks.feature')}</th>
                  <th scope="col">{t('blocks.values')}</th>
                  <th scope="col">{t('blocks.unit')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('common.delete')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {b.features.map((f, j) => {
                  const { depth, groupHeading } = tree[j]!;
                  const reference = referenceOf(f.rest);
                  return (
                    <Fragment key={f.id}>
                      {groupHeading && (
                        <tr className="group-heading">
                          <th scope="rowgroup" colSpan={4}>
                            {t('blocks.featureGroup', { name: groupHeading })}
                          </th>
                        </tr>
                      )}
                      <tr data-depth={depth}>
                        <td style={depth > 0 ? { paddingInlineStart: `${depth * 1.25}rem` } : undefined}>
                          {depth > 0 && <span aria-hidden="true">└ </span>}
                          <input
                            aria-label={`${t('blocks.feature')} ${i + 1}.${j + 1}`}
                            value={f.name}
                            placeholder={f.rest.ftName ?? f.rest.ftId}
                            onChange={(e) => changeFeature(b, f.id, { name: e.target.value })}
                          />
                          {reference && <div className="muted">{reference}</div>}
                        </td>
                        <td>
                          <textarea
                            aria-label={`${t('blocks.values')} ${i + 1}.${j + 1}`}
                            rows={Math.max(1, f.values.split('\n').length)}
                            value={f.values}
                            onChange={(e) => changeFeature(b, f.id, { values: e.target.value })}
                          />
                        </td>
                        <td>
                          <input
                            aria-label={`${t('blocks.unit')} ${i + 1}.${j + 1}`}
                            value={f.unit}
                            onChange={(e) => changeFeature(b, f.id, { unit: e.target.value })}
                          />
                        </td>
                        <td>
                          <button
                            type="button"
                            className="danger-quiet"
                            aria-label={t('blocks.removeFeature', { n: `${i + 1}.${j + 1}` })}
                            onClick={() => changeBlock(b.id, { features: b.features.filter((x) => x.id !== f.id) })}
                          >
                            {t('common.delete')}
                          </button>
                        </td>
                      </tr>
                    </Fragment>
                  );
                })}
              </tbody>
            </table>
            <div className="actions">
              <button type="button" onClick={() => changeBlock(b.id, { features: [...b.features, newFeature()] })}>
                {t('blocks.addFeature')}
              </button>
              <button type="button" className="danger-quiet" onClick={() => setRows(rows.filter((x) => x.id !== b.id))}>
                {t('blocks.removeBlock', { n: i + 1 })}
              </button>
            </div>
          </fieldset>
        );
      })}
      <ErrorText message={error} />
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            setRows([
              ...rows,
              {
                id: nextId++,
                system: '',
                groupId: '',
                groupName: '',
                rest: { system: '', features: [] },
                features: [newFeature()],
              },
            ])
          }
        >
          {t('blocks.addBlock')}
        </button>
        <button type="button" className="primary" onClick={() => void save()} disabled={busy}>
          {busy ? t('common.working') : t('common.save')}
        </button>
      </div>
    </div>
  );
}
