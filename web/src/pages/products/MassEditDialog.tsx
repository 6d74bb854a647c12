import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/errors';
import { useJob } from '../../api/hooks';
import { useRefreshCatalogProducts, useStartMassEdit } from '../../api/mutations';
import { PRODUCT_STATUSES, type Attribute, type MassEditReport } from '../../api/models';
import { Dialog } from '../../components/Dialog';
import { ErrorText } from '../../components/ErrorText';
import { FormField } from '../../components/FormField';
import { JobStateBadge } from '../../components/JobStateBadge';
import { ProgressBar } from '../../components/ProgressBar';
import { useI18n } from '../../i18n/i18n';
import { canonical } from '../../lib/cursor';
import type { ListQuery } from '../../api/models';
import { unitLabel } from '../../lib/units';
import { parseInput, type ValueKind } from '../../lib/values';
import { useSession } from '../../session/session';
import { BUILT_IN_COLUMNS } from './columns';

const FEATURE = '__feature';

/**
 * One field or attribute set to one value for the selection or for every product the filter
 * matches, as a background job (StartMassEdit) whose progress is polled: never a loop in the browser.
 */
export function MassEditDialog({
  catalogId,
  productIds,
  filter,
  attributes,
  onClose,
}: {
  catalogId: string;
  productIds?: string[];
  filter?: ListQuery;
  attributes: Attribute[];
  onClose: () => void;
}) {
  const { t, num } = useI18n();
  const { departmentId } = useSession();
  const startMassEdit = useStartMassEdit();
  const refreshCatalogProducts = useRefreshCatalogProducts();
  const fields = BUILT_IN_COLUMNS.filter((c) => c.edit && c.id !== 'sku');
  const [field, setField] = useState('status');
  // a classification feature is named by its code (e.g. EF000008), as in SetValue
  const [featureCode, setFeatureCode] = useState('');
  const [value, setValue] = useState('active');
  const [error, setError] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useJob(jobId);
  const isFeature = field === FEATURE;
  const attribute = attributes.find((a) => a.code === field);
  const kind: ValueKind = attribute
    ? (attribute.type as ValueKind)
    : (fields.find((f) => f.id === field)?.edit ?? 'text');
  const allowed = field === 'status' ? PRODUCT_STATUSES : (attribute?.enumValues ?? undefined);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = parseInput(kind, value, { unit: attribute?.unit, allowed });
    if (!parsed.ok) {
      setError(t(`value.${parsed.problem}`));
      return;
    }
    if (isFeature && !featureCode.trim()) {
      setError(t('massEdit.featureMissing'));
      return;
    }
    setError(null);
    try {
      // The content language and the badge's channel are how the grid shows rows, not which
      // products it lists; "incomplete for" and "missing X" are filters and go with it.
      const { sort: _s, order: _o, language: _l, completenessChannel: _c, ...where } = filter ? canonical(filter) : {};
      const body = {
        departmentId,
        catalogId,
        field: isFeature ? featureCode.trim().toUpperCase() : field,
        value: parsed.value,
        ...(productIds ? { productIds } : { filter: where }),
      };
      const { jobId: id } = await startMassEdit.mutateAsync(body);
      setJobId(id);
    } catch (err) {
      setError(describeError(err, t));
    }
  }

  const done = job.data && ['succeeded', 'failed', 'cancelled'].includes(job.data.state);
  // A mass edit job's report is always the mass edit one (the union also holds other kinds').
  const result = job.data?.result;
  const report = result && 'report' in result ? (result.report as MassEditReport) : undefined;
  const close = () => {
    if (done) void refreshCatalogProducts(catalogId);
    onClose();
  };
  const scope = productIds
    ? t('massEdit.scopeSelection', { count: num(productIds.length) })
    : t('massEdit.scopeFilter');

  return (
    <Dialog title={t('massEdit.title')} open onClose={close}>
      <p>{scope}</p>
      {!jobId ? (
        <form className="stack" onSubmit={submit} noValidate>
          <FormField label={t('massEdit.field')}>
            {(p) => (
              <select
                {...p}
                value={field}
                onChange={(e) => {
                  setField(e.target.value);
                  setValue('');
                }}
              >
                <optgroup label={t('massEdit.builtIn')}>
                  {fields.map((f) => (
                    <option key={f.id} value={f.id}>
                      {t(f.labelKey!)}
                    </option>
                  ))}
                </optgroup>
                <optgroup label={t('massEdit.classification')}>
                  <option value={FEATURE}>{t('massEdit.feature')}</option>
                </optgroup>
                {attributes.length > 0 && (
                  <optgroup label={t('massEdit.attributes')}>
                    {attributes.map((a) => (
                      <option key={a.code} value={a.code}>
                        {a.name}
                      </option>
                    ))}
                  </optgroup>
                )}
              </select>
            )}
          </FormField>
          {isFeature && (
            <FormField label={t('massEdit.featureCode')} hint={t('massEdit.featureHint')}>
              {(p) => (
                <input
                  {...p}
                  value={featureCode}
                  onChange={(e) => setFeatureCode(e.target.value)}
                  placeholder="EF000008"
                />
              )}
            </FormField>
          )}
          <FormField
            label={t('massEdit.value')}
            hint={attribute?.unit ? t('massEdit.unitHint', { unit: unitLabel(attribute.unit) }) : undefined}
          >
            {(p) =>
              allowed ? (
                <select {...p} value={value} onChange={(e) => setValue(e.target.value)}>
                  <option value="">{t('common.choose')}</option>
                  {allowed.map((v) => (
                    <option key={v} value={v}>
                      {field === 'status' ? t(`status.${v as 'active'}`) : v}
                    </option>
                  ))}
                </select>
              ) : (
                <input {...p} value={value} onChange={(e) => setValue(e.target.value)} />
              )
            }
          </FormField>
          <ErrorText message={error} />
          <div className="dialog-actions">
            <button type="button" onClick={close}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="primary">
              {t('massEdit.start')}
            </button>
          </div>
        </form>
      ) : (
        <div className="stack" aria-live="polite">
          {job.data && (
            <p>
              <JobStateBadge state={job.data.state} />
            </p>
          )}
          <ProgressBar
            label={t('massEdit.progress')}
            done={job.data?.progress.done ?? 0}
            total={job.data?.progress.total ?? 0}
          />
          {job.error ? <ErrorText message={describeError(job.error, t)} /> : null}
          {job.data?.error && <ErrorText message={job.data.error} />}
          {report && (
            <div>
              <p>
                {t('massEdit.report', {
                  updated: num(report.updated),
                  unchanged: num(report.unchanged),
                  failed: num(report.failedCount ?? report.failed.length),
                })}
              </p>
              {report.failed.length > 0 && (
                <ul className="plain-list">
                  {report.failed.slice(0, 50).map((f) => (
                    <li key={f.productId}>
                      <strong>{f.sku ?? f.productId}</strong>: {f.error}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <div className="dialog-actions">
            <button type="button" className="primary" onClick={close}>
              {done ? t('common.close') : t('massEdit.background')}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
