import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { describeError, isUnsupported } from '../api/errors';
import { keys } from '../api/keys';
import { useDeleteElementClassification, useSetElementClassification } from '../api/mutations';
import type { ProductDetail } from '../api/models';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { featureKind, parseInput } from '../lib/values';
import { useSession } from '../session/session';
import { ClassPicker } from './ClassPicker';
import {
  type ClassChoice,
  getClassFeatures,
  getElementClassification,
  getGroupReleases,
  getReleaseFeatures,
  newerRelease,
  GROUP_LABELS,
  type FeatureDef,
  type Group,
} from './classification-api';
import { FeatureForm } from './FeatureForm';

/**
 * Classify a product: pick classes (ETIM, eCl@ss, proficl@ss) by code or name, then fill a typed
 * form per feature. Saved through SetElementClassification, the same domain functions as /api/ai.
 */
export function ClassificationEditor({ product }: { product: ProductDetail }) {
  const { t, lang } = useI18n();
  const { departmentId } = useSession();
  const setClassification = useSetElementClassification();
  const deleteClassification = useDeleteElementClassification();
  const announce = useAnnounce();
  const current = useQuery({
    queryKey: keys.classification(product.productId),
    queryFn: () => getElementClassification(product.productId),
  });
  const [classes, setClasses] = useState<ClassChoice[]>([]);
  const [values, setValues] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!current.data) return;
    setClasses(current.data.classes);
    setValues(Object.fromEntries(current.data.features.map((f) => [`${f.group ?? ''}:${f.code}`, f.value])));
  }, [current.data]);

  const featureQueries = useQueries({
    // A class of a loaded release gets its form from that release; others from the built-in data.
    queries: classes.map((c) => ({
      queryKey: c.release ? keys.releaseClassFeatures(c.release, c.code, lang) : keys.classFeatures(c.group, c.code),
      queryFn: () => (c.release ? getReleaseFeatures(c.release, c.code, lang) : getClassFeatures(c.group, c.code)),
      staleTime: 10 * 60_000,
    })),
  });
  const featureSets = classes.map((c, i) => ({ cls: c, query: featureQueries[i]! }));
  // Per class of a release: the newer release of its system when one is loaded ("on an old release").
  const releaseQueries = useQueries({
    queries: classes.map((c) => ({
      queryKey: keys.groupReleases(c.group),
      queryFn: () => getGroupReleases(c.group),
      staleTime: 60_000,
    })),
  });
  const newerOf = (c: ClassChoice, i: number) =>
    c.release ? newerRelease(c.release, releaseQueries[i]?.data ?? []) : null;

  async function save() {
    setError(null);
    const next: Record<string, string> = {};
    const features: { group: Group; code: string; value: string }[] = [];
    for (const { cls, query } of featureSets) {
      for (const f of (query.data ?? []) as FeatureDef[]) {
        const key = `${cls.group}:${f.code}`;
        const raw = values[key] ?? '';
        const parsed = parseInput(featureKind(f.type), raw, {
          unit: f.unit,
          allowed: f.type === 'A' ? f.values.map((v) => v.code) : undefined,
        });
        if (!parsed.ok) next[key] = t(`value.${parsed.problem}`);
        else if (parsed.value !== '') features.push({ group: cls.group, code: f.code, value: parsed.value });
      }
    }
    setProblems(next);
    if (Object.keys(next).length) {
      setError(t('form.fixProblems'));
      return;
    }
    setBusy(true);
    try {
      // Removing every class removes the classification: an explicit delete, never an empty list.
      if (classes.length === 0) {
        if (current.data?.classes.length)
          await deleteClassification.mutateAsync({ departmentId, elementId: product.productId });
      } else {
        await setClassification.mutateAsync({
          departmentId,
          elementId: product.productId,
          classes: classes.map((c) => ({ group: c.group, code: c.code, release: c.release ?? null })),
          features,
        });
      }
      announce(t('form.saved'));
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  if (isUnsupported(current.error)) return <ReadOnlyClassification product={product} />;
  return (
    <QueryState isPending={current.isPending} error={current.error}>
      <div className="stack">
        <section aria-labelledby="classes-h">
          <h2 id="classes-h" className="h3">
            {t('class.classes')}
          </h2>
          {classes.length === 0 && <p className="muted">{t('class.none')}</p>}
          <ul className="chips">
            {classes.map((c, i) => (
              <li key={`${c.group}:${c.code}`} className="chip">
                <span>
                  {c.release ?? GROUP_LABELS[c.group]} <strong>{c.code}</strong> {c.name}
                  {newerOf(c, i) && (
                    <>
                      {' '}
                      <span className="badge badge-missing" data-old-release="">
                        {t('class.oldRelease', { newest: newerOf(c, i)! })}
                      </span>
                    </>
                  )}
                </span>
                <button
                  type="button"
                  className="icon"
                  aria-label={t('class.remove', { code: c.code })}
                  onClick={() => setClasses(classes.filter((x) => x !== c))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
          <ClassPicker taken={classes} onPick={(c) => setClasses([...classes.filter((x) => x.group !== c.group), c])} />
        </section>
        {featureSets.map(({ cls, query }) => (
          <section key={`${cls.group}:${cls.code}`} aria-label={t('class.featuresOf', { code: cls.code })}>
            <h2 className="h3">{t('class.featuresOf', { code: `${cls.code} ${cls.name}` })}</h2>
            <QueryState isPending={query.isPending} error={query.error}>
              <FeatureForm
                group={cls.group}
                features={(query.data ?? []) as FeatureDef[]}
                values={values}
                problems={problems}
                onChange={(key, v) => setValues({ ...values, [key]: v })}
              />
            </QueryState>
          </section>
        ))}
        <ErrorText message={error} />
        <div className="form-actions">
          <button type="button" className="primary" disabled={busy} onClick={() => void save()}>
            {busy ? t('common.working') : t('class.save')}
          </button>
        </div>
      </div>
    </QueryState>
  );
}

/** Until the server offers the web classification operations: what GetProduct says, read-only. */
function ReadOnlyClassification({ product }: { product: ProductDetail }) {
  const { t } = useI18n();
  const c = product.classification;
  return (
    <div className="stack">
      <p className="notice" role="status">
        {t('class.unsupported')}
      </p>
      {!c ? (
        <p className="muted">{t('class.none')}</p>
      ) : (
        <>
          <ul className="chips">
            {c.classes.map((k) => (
              <li key={`${k.group}:${k.code}`} className="chip">
                <span>
                  {k.system} <strong>{k.code}</strong>
                </span>
              </li>
            ))}
          </ul>
          <table className="table compact">
            <thead>
              <tr>
                <th scope="col">{t('class.feature')}</th>
                <th scope="col">{t('class.value')}</th>
              </tr>
            </thead>
            <tbody>
              {c.features.map((f) => (
                <tr key={`${f.group}:${f.code}`}>
                  <td>{f.code}</td>
                  <td>
                    {f.value}
                    {f.unit ? ` ${f.unit}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
