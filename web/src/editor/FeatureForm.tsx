import { FormField } from '../components/FormField';
import { useI18n } from '../i18n/i18n';
import { featureKind } from '../lib/values';
import type { FeatureDef, Group } from './classification-api';
import { ValueInput } from './ValueInput';

/** One typed input per feature: A as a select of value codes with labels, N with unit, R min/max, L yes/no. */
export function FeatureForm({
  group,
  features,
  values,
  problems,
  onChange,
}: {
  group: Group;
  features: FeatureDef[];
  values: Record<string, string>;
  problems: Record<string, string>;
  onChange: (key: string, value: string) => void;
}) {
  const { t } = useI18n();
  if (features.length === 0) return <p className="muted">{t('class.noFeatures')}</p>;
  return (
    <div className="form-grid">
      {features.map((f) => {
        const key = `${group}:${f.code}`;
        return (
          <FormField key={key} label={f.name} hint={`${f.code} · ${t(`class.type.${f.type}`)}`} problem={problems[key]}>
            {(p) => (
              <ValueInput
                id={p.id}
                describedBy={p['aria-describedby']}
                invalid={p['aria-invalid']}
                label={f.name}
                kind={featureKind(f.type)}
                unit={f.unit}
                options={f.values.map((v) => ({ value: v.code, label: `${v.name} (${v.code})` }))}
                value={values[key] ?? ''}
                onChange={(v) => onChange(key, v)}
              />
            )}
          </FormField>
        );
      })}
    </div>
  );
}
