import { useI18n } from '../i18n/i18n';
import { unitLabel } from '../lib/units';
import type { ValueKind } from '../lib/values';

interface Props {
  id?: string;
  /** The field path it edits (`values.colour`): the editor focuses it from a completeness link. */
  name?: string;
  kind: ValueKind;
  value: string;
  onChange: (value: string) => void;
  /** For enums: the allowed values, each with an optional label (ETIM EV codes carry names). */
  options?: { value: string; label: string }[];
  unit?: string | null;
  label: string;
  describedBy?: string;
  invalid?: boolean;
}

/**
 * A typed input: a select for enums, yes/no for booleans, min and max for ranges, a number field
 * with its unit beside it. The value is the draft text; parsing happens on save (lib/values.ts).
 */
export function ValueInput({ id, name, kind, value, onChange, options, unit, label, describedBy, invalid }: Props) {
  const { t } = useI18n();
  const common = { id, name, 'aria-describedby': describedBy, 'aria-invalid': invalid || undefined };
  if (kind === 'enum' && options) {
    return (
      <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('common.notSet')}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  }
  if (kind === 'boolean') {
    return (
      <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('common.notSet')}</option>
        <option value="true">{t('common.yes')}</option>
        <option value="false">{t('common.no')}</option>
      </select>
    );
  }
  if (kind === 'range') {
    const [min = '', max = ''] = value.split('..');
    return (
      <fieldset className="range-input" aria-label={label}>
        <input
          {...common}
          aria-label={`${label} ${t('value.min')}`}
          inputMode="decimal"
          value={min}
          onChange={(e) => onChange(`${e.target.value}..${max}`)}
        />
        <span aria-hidden="true">–</span>
        <input
          aria-label={`${label} ${t('value.max')}`}
          inputMode="decimal"
          value={max}
          onChange={(e) => onChange(`${min}..${e.target.value}`)}
        />
        {unit && (
          <span className="unit" title={unit}>
            {unitLabel(unit)}
          </span>
        )}
      </fieldset>
    );
  }
  const numeric = kind === 'number' || kind === 'integer' || kind === 'decimal';
  return (
    <span className="unit-input">
      <input
        {...common}
        inputMode={numeric ? 'decimal' : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {unit && (
        <span className="unit" title={unit}>
          {unitLabel(unit)}
        </span>
      )}
    </span>
  );
}
